import type { BoardKind } from '../../../../shared/schemas/ranking';
import { BOARD_FEED_TOP_PLACES, BOARD_FEED_WEEKLY_FASTEST } from '../../../../shared/feeds';
import { addDays, type Day, toDay } from './days';
import type { Standing } from './standing';

/** A most followed board's top, as its feed tells who entered it. */
export const NEWS_TOP_PLACES = BOARD_FEED_TOP_PLACES;
/** Entries a board's feed keeps: five weeks of the fastest growing, and more than any reader polls between. */
export const NEWS_ENTRIES_KEPT = 50;
/** Publications named as a week's fastest growing. */
export const WEEKLY_FASTEST = BOARD_FEED_WEEKLY_FASTEST;

/** Boards with a feed: the most followed and the fastest growing, overall and per topic (not the active-only ones). */
export const NEWS_BOARD_KINDS: readonly BoardKind[] = ['followers', 'growth'];

/** What a board's news reads of each row. */
export type NewsRow = Pick<Standing, 'slug' | 'name' | 'followers' | 'followers7dAgo'>;

/** The rows of a board its news looks at: the top of a most followed board, all of a fastest growing one. */
export const NEWS_ROWS_READ: Readonly<Record<'followers' | 'growth', number>> = {
  followers: NEWS_TOP_PLACES,
  growth: Number.POSITIVE_INFINITY,
};

/** One piece of a board's news: a publication that entered the top, or one of a week's fastest growing. */
export interface BoardNewsEntry {
  slug: string;
  name: string;
  /** When the job saw it, ISO. */
  at: string;
  /** Its rank on the board then (most followed), or its place among the week's fastest growing. */
  rank: number;
  followers: number;
  /** Followers gained over the week (fastest growing only). */
  gained?: number;
  /** Monday of the week (fastest growing only). */
  week?: Day;
}

export interface BoardNewsState {
  top?: string[] | undefined;
  week?: Day | undefined;
  entries: BoardNewsEntry[];
}

/** Monday of the ISO week that holds `day`. */
export function mondayOf(day: Day): Day {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

function keep(fresh: BoardNewsEntry[], previous: readonly BoardNewsEntry[]): BoardNewsEntry[] {
  return [...fresh, ...previous].slice(0, NEWS_ENTRIES_KEPT);
}

/**
 * Who entered the top since the last run: the first look at a board only remembers its top
 * (a board seen for the first time is not news), later runs tell each newcomer once, best rank
 * first. Null when the top holds the same publications: nothing to write.
 */
function enteredTop(previous: BoardNewsState | undefined, rows: readonly NewsRow[], at: string): BoardNewsState | null {
  const top = rows.slice(0, NEWS_TOP_PLACES);
  const slugs = top.map((row) => row.slug);
  if (!previous?.top) return { top: slugs, entries: previous?.entries ?? [] };
  const before = new Set(previous.top);
  const fresh = top.flatMap((row, index) =>
    before.has(row.slug) ? [] : [{ slug: row.slug, name: row.name, at, rank: index + 1, followers: row.followers }],
  );
  if (fresh.length === 0 && slugs.length === before.size && slugs.every((slug) => before.has(slug))) return null;
  return { top: slugs, entries: keep(fresh, previous.entries) };
}

/**
 * The fastest growing of the week just closed, recorded by the first run of the next week:
 * followers gained over the 7 days before that run, the most first, only those that gained.
 * Null once the week is recorded.
 */
function weeklyFastest(previous: BoardNewsState | undefined, rows: readonly NewsRow[], now: Date): BoardNewsState | null {
  const week = addDays(mondayOf(toDay(now)), -7);
  if (previous?.week === week) return null;
  const at = now.toISOString();
  const fastest = rows
    .map((row) => ({ row, gained: row.followers - row.followers7dAgo }))
    .filter(({ gained }) => gained > 0)
    .sort((a, b) => b.gained - a.gained || b.row.followers - a.row.followers || (a.row.slug < b.row.slug ? -1 : 1))
    .slice(0, WEEKLY_FASTEST)
    .map(({ row, gained }, index) => ({
      slug: row.slug,
      name: row.name,
      at,
      rank: index + 1,
      followers: row.followers,
      gained,
      week,
    }));
  return { week, entries: keep(fastest, previous?.entries ?? []) };
}

/** A board's news after a run, or null when the run changed nothing a feed shows. */
export function nextBoardNews(
  kind: BoardKind,
  previous: BoardNewsState | undefined,
  rows: readonly NewsRow[],
  now: Date,
): BoardNewsState | null {
  return kind === 'growth' ? weeklyFastest(previous, rows, now) : enteredTop(previous, rows, now.toISOString());
}
