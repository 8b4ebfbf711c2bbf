import styles from './publication-table.module.css';

const WIDTH = 96;
const HEIGHT = 28;
const PAD = 2;

/** Polyline coordinates for `points` scaled into the sparkline box, oldest on the left. */
export function sparklinePoints(points: readonly number[], width = WIDTH, height = HEIGHT): string {
  const min = Math.min(...points);
  const range = Math.max(...points) - min;
  const step = points.length > 1 ? width / (points.length - 1) : 0;
  return points
    .map((value, index) => {
      const y = range === 0 ? height / 2 : height - PAD - ((value - min) / range) * (height - PAD * 2);
      return `${Math.round(index * step * 10) / 10},${Math.round(y * 10) / 10}`;
    })
    .join(' ');
}

export type Trend = 'up' | 'down' | 'flat';

/**
 * A small inline trend line of daily follower counts; no chart library. Its colour follows
 * `trend` when given (the row's 30-day growth), otherwise the first and last points.
 */
export function Sparkline({ points, label, trend: trendOverride }: { points: readonly number[]; label: string; trend?: Trend }) {
  if (points.length < 2) return <span className={styles.sparkEmpty} aria-hidden="true" />;
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const trend = trendOverride ?? (last > first ? 'up' : last < first ? 'down' : 'flat');
  const line = sparklinePoints(points);
  return (
    <svg
      className={styles.sparkline}
      data-trend={trend}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      role="img"
      aria-label={label}
    >
      <polygon points={`0,${HEIGHT} ${line} ${WIDTH},${HEIGHT}`} fill="currentColor" opacity={0.08} />
      <polyline points={line} fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}
