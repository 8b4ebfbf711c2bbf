import { type ReactNode, useId, useState } from 'react';
import { Area, AreaChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { PublicationBoardRank, PublicationDetail } from '@shared/schemas/ranking';
import { BOARD_NAMES } from '../lib/board-names';
import { formatCompact, formatExact } from '../lib/format';
import styles from './publication-page.module.css';

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const longDayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** '2026-11-24' -> 'Nov 24'. */
export function formatDay(day: string, long = false): string {
  const date = new Date(`${day}T00:00:00Z`);
  return (long ? longDayFormat : dayFormat).format(date);
}

/** "Most followed · UX, active only". */
export function boardLabel({ board, topicName }: Pick<PublicationBoardRank, 'board' | 'topicName'>): string {
  const kind = BOARD_NAMES[board.kind];
  const scope = topicName ? `${kind} · ${topicName}` : kind;
  return board.activeOnly ? `${scope}, active only` : scope;
}

const CHART_HEIGHT = 240;
const AXIS_TICK = { fill: 'var(--color-text-muted)', fontSize: 12 };

/**
 * A chart is a picture for sighted readers: its summary is its accessible name, and the exact
 * numbers are one click away in a table (for screen readers, keyboards and copying alike).
 */
function ChartFigure({
  title,
  summary,
  table,
  controls,
  children,
}: {
  title: string;
  summary: string;
  table: { caption: string; headers: [string, string]; rows: [string, string][] };
  /** Shown between the title and the chart (the rank chart's board picker). */
  controls?: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <figure className={styles.figure} aria-labelledby={titleId}>
      <figcaption id={titleId} className={styles.figureTitle}>
        {title}
      </figcaption>
      {controls}
      <div role="img" aria-label={summary} className={styles.chart}>
        {children}
      </div>
      <p className={styles.summary} aria-hidden="true">
        {summary}
      </p>
      <details className={styles.tableFallback}>
        <summary>Show as a table</summary>
        <div className={styles.tableScroll}>
          <table>
            <caption>{table.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{table.headers[0]}</th>
                <th scope="col">{table.headers[1]}</th>
              </tr>
            </thead>
            <tbody>
              {table.rows.map(([day, value]) => (
                <tr key={day}>
                  <th scope="row">{day}</th>
                  <td>{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

export function FollowerChart({ name, history }: { name: string; history: PublicationDetail['history'] }) {
  const first = history[0];
  const last = history.at(-1);
  const summary =
    first && last
      ? `Followers of ${name} from ${formatDay(first.day, true)} to ${formatDay(last.day, true)}: ` +
        `${formatExact(first.followers)} to ${formatExact(last.followers)}.`
      : `No follower counts of ${name} yet.`;
  return (
    <ChartFigure
      title="Followers, last 90 days"
      summary={summary}
      table={{
        caption: `Daily followers of ${name}`,
        headers: ['Day', 'Followers'],
        rows: history.map(({ day, followers }) => [formatDay(day, true), formatExact(followers)]),
      }}
    >
      <ResponsiveContainer width="100%" height={CHART_HEIGHT} initialDimension={{ width: 640, height: CHART_HEIGHT }}>
        <AreaChart data={history} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid stroke="var(--color-border)" vertical={false} />
          <XAxis dataKey="day" tickFormatter={(day: string) => formatDay(day)} tick={AXIS_TICK} minTickGap={24} />
          <YAxis
            tickFormatter={(value: number) => formatCompact(value)}
            tick={AXIS_TICK}
            width={48}
            domain={['auto', 'auto']}
            allowDecimals={false}
          />
          <Tooltip
            formatter={(value) => [formatExact(Number(value)), 'Followers']}
            labelFormatter={(day) => formatDay(String(day), true)}
          />
          <Area
            type="monotone"
            dataKey="followers"
            stroke="var(--color-brand)"
            fill="var(--color-brand-soft)"
            strokeWidth={2}
            isAnimationActive={false}
          />
        </AreaChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}

export function RankChart({
  name,
  boards,
  rankHistory,
}: {
  name: string;
  boards: PublicationBoardRank[];
  rankHistory: PublicationDetail['rankHistory'];
}) {
  const selectId = useId();
  const [boardId, setBoardId] = useState(boards[0]?.boardId ?? 'followers.all');
  const chosen = boards.find((board) => board.boardId === boardId) ?? boards[0];
  const label = chosen ? boardLabel(chosen) : 'Most followed';
  const points = rankHistory.map(({ day, ranks }) => ({ day, rank: ranks[boardId] ?? null }));
  const ranked = points.filter((point): point is { day: string; rank: number } => point.rank !== null);
  const first = ranked[0];
  const last = ranked.at(-1);
  const best = ranked.reduce<number | null>((top, { rank }) => (top === null || rank < top ? rank : top), null);
  const summary =
    first && last && best !== null
      ? `Rank of ${name} on ${label} from ${formatDay(first.day, true)} to ${formatDay(last.day, true)}: ` +
        `#${formatExact(first.rank)} to #${formatExact(last.rank)}, best #${formatExact(best)}.`
      : `No rank history of ${name} on ${label} yet.`;
  const picker =
    boards.length > 1 ? (
      <div className={styles.boardPicker}>
        <label htmlFor={selectId}>Board</label>
        <select id={selectId} value={boardId} onChange={(event) => setBoardId(event.target.value)}>
          {boards.map((board) => (
            <option key={board.boardId} value={board.boardId}>
              {boardLabel(board)}
            </option>
          ))}
        </select>
      </div>
    ) : null;
  return (
    <ChartFigure
      controls={picker}
      title={`Rank on ${label}, last 90 days`}
      summary={summary}
      table={{
        caption: `Daily rank of ${name} on ${label}`,
        headers: ['Day', 'Rank'],
        rows: ranked.map(({ day, rank }) => [formatDay(day, true), `#${formatExact(rank)}`]),
      }}
    >
      <ResponsiveContainer width="100%" height={CHART_HEIGHT} initialDimension={{ width: 640, height: CHART_HEIGHT }}>
        <LineChart data={points} margin={{ top: 12, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid stroke="var(--color-border)" vertical={false} />
          <XAxis dataKey="day" tickFormatter={(day: string) => formatDay(day)} tick={AXIS_TICK} minTickGap={24} />
          {/* Rank 1 is the top: the axis runs downwards, so climbing looks like climbing. */}
          <YAxis
            reversed
            // A steady #1 is a line along the top, not a line lost in the middle of a one-value axis.
            domain={[1, (highest: number) => Math.max(highest, 10)]}
            allowDecimals={false}
            tickFormatter={(value: number) => `#${formatCompact(value)}`}
            tick={AXIS_TICK}
            width={56}
          />
          <Tooltip
            formatter={(value) => [`#${formatExact(Number(value))}`, 'Rank']}
            labelFormatter={(day) => formatDay(String(day), true)}
          />
          <Line
            type="monotone"
            dataKey="rank"
            stroke="var(--color-brand)"
            strokeWidth={2}
            dot={false}
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
