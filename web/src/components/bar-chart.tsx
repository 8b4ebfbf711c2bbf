import { useId } from 'react';
import styles from './bar-chart.module.css';

export interface BarDatum {
  /** Unique among the bars (a date). */
  key: string;
  /** How the bar is named in the table and its tooltip: "24 Nov". */
  label: string;
  value: number;
}

/** The plot's drawing box. The SVG stretches to its container; only rectangles are drawn in it, so nothing distorts. */
const VIEW_WIDTH = 600;
const VIEW_HEIGHT = 160;
/** Room between bars, as a share of each bar's slot. */
const GAP_SHARE = 0.25;

/**
 * A small bar chart by hand (no chart library in the bundle): one bar per datum, oldest on the
 * left. The picture is for sighted readers, summed up in its accessible name; the exact figures
 * are in a table that only screen readers meet, with the same rows.
 */
export function BarChart({
  title,
  data,
  formatValue,
  labelHeader,
  valueHeader,
  summary,
}: {
  title: string;
  data: readonly BarDatum[];
  formatValue: (value: number) => string;
  /** The table's column headers: "Day", "Revenue". */
  labelHeader: string;
  valueHeader: string;
  /** The chart's accessible name; by default, the highest bar and the total. */
  summary?: string | undefined;
}) {
  const titleId = useId();
  const max = Math.max(0, ...data.map((datum) => datum.value));
  const slot = data.length ? VIEW_WIDTH / data.length : VIEW_WIDTH;
  const barWidth = slot * (1 - GAP_SHARE);
  const highest = data.reduce<BarDatum | undefined>(
    (best, datum) => (!best || datum.value > best.value ? datum : best),
    undefined,
  );
  const total = data.reduce((sum, datum) => sum + datum.value, 0);
  const label =
    summary ??
    (highest && max > 0
      ? `${title}: ${formatValue(total)} in all over ${data.length} days, the most ${formatValue(highest.value)} on ${highest.label}.`
      : `${title}: nothing yet.`);
  const first = data[0];
  const last = data.at(-1);

  return (
    <figure className={styles.figure} aria-labelledby={titleId}>
      <figcaption id={titleId} className={styles.title}>
        {title}
      </figcaption>
      <p className={styles.scale} aria-hidden="true">
        {max > 0 ? formatValue(max) : formatValue(0)}
      </p>
      <div className={styles.plot}>
        <svg
          className={styles.svg}
          role="img"
          aria-label={label}
          viewBox={`0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`}
          preserveAspectRatio="none"
          focusable="false"
        >
          <line className={styles.grid} x1={0} x2={VIEW_WIDTH} y1={0.5} y2={0.5} vectorEffect="non-scaling-stroke" />
          <line
            className={styles.grid}
            x1={0}
            x2={VIEW_WIDTH}
            y1={VIEW_HEIGHT / 2}
            y2={VIEW_HEIGHT / 2}
            vectorEffect="non-scaling-stroke"
          />
          {max > 0
            ? data.map((datum, index) => {
                if (datum.value <= 0) return null;
                // At least a sliver, so a small day next to a big one still shows.
                const height = Math.max((datum.value / max) * VIEW_HEIGHT, 2);
                return (
                  <rect
                    key={datum.key}
                    className={styles.bar}
                    x={index * slot + (slot - barWidth) / 2}
                    y={VIEW_HEIGHT - height}
                    width={barWidth}
                    height={height}
                    rx={1}
                  >
                    <title>{`${datum.label}: ${formatValue(datum.value)}`}</title>
                  </rect>
                );
              })
            : null}
        </svg>
      </div>
      {first && last ? (
        <p className={styles.axis} aria-hidden="true">
          <span>{first.label}</span>
          <span>{last.label}</span>
        </p>
      ) : null}
      <table className="visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{labelHeader}</th>
            <th scope="col">{valueHeader}</th>
          </tr>
        </thead>
        <tbody>
          {data.map((datum) => (
            <tr key={datum.key}>
              <th scope="row">{datum.label}</th>
              <td>{formatValue(datum.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
