import { useEffect, useRef, useSyncExternalStore } from 'react';
import { formatBytes } from '../../../lib/format-bytes';
import { formatSpeed, formatTimeLeft } from '../lib/format';
import type { FileProgress, SendProgressStore } from '../lib/send-progress';
import type { PickedFile } from '../lib/send-transfer';
import { ProgressBar } from './progress-bar';
import styles from './transfers.module.css';

const PHASE_TEXT = {
  preparing: 'Preparing the transfer…',
  uploading: 'Uploading',
  finalizing: 'Sending the emails…',
} as const;

function fileText(progress: FileProgress): string {
  switch (progress.phase) {
    case 'waiting':
      return 'Waiting';
    case 'finalizing':
      return 'Checking';
    case 'done':
      return 'Uploaded';
    case 'failed':
      return 'Failed';
    default:
      return `${formatBytes(progress.sentBytes)} of ${formatBytes(progress.totalBytes)}`;
  }
}

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** Every tenth of the way, so a screen reader hears the send move on without hearing every byte. */
const ANNOUNCE_STEP = 10;

/** What the live region says: the phase, and while uploading how far in tenths. */
function announcement(phase: keyof typeof PHASE_TEXT, fraction: number): string {
  if (phase !== 'uploading') return PHASE_TEXT[phase];
  const percent = Math.floor((Math.min(Math.max(fraction, 0), 1) * 100) / ANNOUNCE_STEP) * ANNOUNCE_STEP;
  return `Uploading: ${percent}% sent`;
}

/**
 * The send as it goes: the whole transfer (bytes, speed, time left), then a bar per file. It
 * appears when Send is pressed, at the foot of a long form (on a phone only the button's
 * "Sending…" would show): so it scrolls its overall progress into view, smoothly unless the
 * visitor asks for reduced motion, and takes the focus, so a screen reader starts from it. A
 * live region then announces the phase and every tenth of the way.
 */
export function SendProgressView({ store, files }: { store: SendProgressStore; files: readonly PickedFile[] }) {
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const overall = useRef<HTMLElement>(null);
  useEffect(() => {
    const element = overall.current;
    if (!element) return;
    const reducedMotion = typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION_QUERY).matches;
    element.focus({ preventScroll: true });
    element.scrollIntoView({ behavior: reducedMotion ? 'auto' : 'smooth', block: 'start' });
  }, []);
  const { total } = snapshot;
  const details = [`${formatBytes(total.sentBytes)} of ${formatBytes(total.totalBytes)}`];
  if (snapshot.phase === 'uploading' && total.bytesPerSecond !== undefined) details.push(formatSpeed(total.bytesPerSecond));
  if (snapshot.phase === 'uploading' && total.secondsLeft !== undefined && total.secondsLeft > 0)
    details.push(`about ${formatTimeLeft(total.secondsLeft)} left`);
  const summary = details.join(' · ');

  return (
    <section ref={overall} tabIndex={-1} className={styles.progress} aria-label="Sending">
      <div className={styles.progressFile}>
        <div className={styles.progressLine}>
          <strong>{PHASE_TEXT[snapshot.phase]}</strong>
          <span>{summary}</span>
        </div>
        <p className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
          {announcement(snapshot.phase, total.fraction)}
        </p>
        <ProgressBar label="Transfer progress" fraction={total.fraction} valueText={summary} />
      </div>
      <ul className={styles.list} aria-label="Files being sent">
        {files.map(({ key, file }) => {
          const progress = snapshot.files.get(key) ?? { sentBytes: 0, totalBytes: file.size, phase: 'waiting' as const };
          const fraction = progress.totalBytes > 0 ? progress.sentBytes / progress.totalBytes : progress.phase === 'done' ? 1 : 0;
          const text = fileText(progress);
          return (
            <li key={key} className={`${styles.item} ${styles.progressFile}`}>
              <div className={styles.progressLine}>
                <span className={styles.itemName}>{file.name}</span>
                <span className={styles.itemMeta}>{text}</span>
              </div>
              <ProgressBar
                label={`Upload of ${file.name}`}
                fraction={fraction}
                valueText={text}
                tone={progress.phase === 'done' ? 'done' : progress.phase === 'failed' ? 'failed' : 'brand'}
              />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
