import styles from './progress-bar.module.css';

/**
 * A labelled progress bar (role progressbar, 0-100, with the words a screen reader says in
 * aria-valuetext), drawn as a track and a fill.
 */
export function ProgressBar({
  label,
  fraction,
  valueText,
  tone = 'brand',
}: {
  label: string;
  /** 0 to 1. */
  fraction: number;
  valueText?: string;
  tone?: 'brand' | 'done' | 'failed';
}) {
  const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText ?? `${percent}%`}
      className={styles.track}
      data-tone={tone}
    >
      <span className={styles.fill} style={{ width: `${percent}%` }} />
    </div>
  );
}
