import { useSyncExternalStore } from 'react';
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

/** The send as it goes: the whole transfer (bytes, speed, time left), then a bar per file. */
export function SendProgressView({ store, files }: { store: SendProgressStore; files: readonly PickedFile[] }) {
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const { total } = snapshot;
  const details = [`${formatBytes(total.sentBytes)} of ${formatBytes(total.totalBytes)}`];
  if (snapshot.phase === 'uploading' && total.bytesPerSecond !== undefined) details.push(formatSpeed(total.bytesPerSecond));
  if (snapshot.phase === 'uploading' && total.secondsLeft !== undefined && total.secondsLeft > 0)
    details.push(`about ${formatTimeLeft(total.secondsLeft)} left`);
  const summary = details.join(' · ');

  return (
    <section className={styles.progress} aria-label="Sending">
      <div className={styles.progressFile}>
        <div className={styles.progressLine}>
          <strong aria-live="polite">{PHASE_TEXT[snapshot.phase]}</strong>
          <span>{summary}</span>
        </div>
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
