import type { ArchiveBoards, ArchiveRow, ArchiveTopic } from '../../../../shared/schemas/month-archive';
import type { ArchiveBoardKind, PublicationArchiveMonth } from '../../../../shared/schemas/ranking';
import type { DailyCounts } from '../../../lib/db/entities/follower-history';
import type { DaysOfRanks } from '../../../lib/db/entities/rank-history';
import type { Day } from './days';
import { parseBoardId } from './rank-history';
import { topicName } from './boards';
import { lastDayOfMonth } from '../../../../shared/archive-months';

/** Rows kept on each board of a month: the archive shows a month's leaders, not its whole field. */
export const ARCHIVE_BOARD_SIZE = 50;

/** What the rank history says of one publication's month. */
export interface MonthPresence {
  /** Its topics on the last day it was ranked in the month. */
  topics: string[];
  /** Days it was on an active-only board: a post within the active window that day. */
  activeDays: number;
}

/**
 * A publication's month from its daily ranks. Every publication on the boards has a rank on the
 * overall board of its kind each day it is ranked, and on the active-only boards each day it is
 * active, whichever of its boards the history keeps; its topics are those of its topic boards.
 */
export function presenceOf(days: DaysOfRanks): MonthPresence | null {
  const recorded = Object.keys(days).sort();
  const last = recorded.at(-1);
  if (last === undefined) return null;
  let activeDays = 0;
  for (const dd of recorded) {
    if (Object.keys(days[dd] ?? {}).some((id) => parseBoardId(id)?.activeOnly)) activeDays += 1;
  }
  const topics = new Set<string>();
  for (const id of Object.keys(days[last] ?? {})) {
    const topic = parseBoardId(id)?.topic;
    if (topic) topics.add(topic);
  }
  return { topics: [...topics].sort(), activeDays };
}

/** A year of daily follower counts, as the follower history keeps it ('MM-DD' -> count). */
export interface FollowerYear {
  year: string;
  days: DailyCounts;
}

/**
 * Followers at the month's end (its last count on or before the last day) and at its start (the
 * last count before the month began, or, for a publication first counted during the month, its
 * first count in it): the same rule the growth boards follow. Null when nothing was counted by
 * the month's end.
 */
export function followersOverMonth(years: readonly FollowerYear[], month: string): { start: number; end: number } | null {
  const first = `${month}-01`;
  const last = lastDayOfMonth(month);
  let before: { day: Day; count: number } | undefined;
  let firstInMonth: { day: Day; count: number } | undefined;
  let end: { day: Day; count: number } | undefined;
  for (const { year, days } of years) {
    for (const [monthDay, count] of Object.entries(days)) {
      const day = `${year}-${monthDay}`;
      if (day > last) continue;
      if (!end || day > end.day) end = { day, count };
      if (day < first) {
        if (!before || day > before.day) before = { day, count };
      } else if (!firstInMonth || day < firstInMonth.day) {
        firstInMonth = { day, count };
      }
    }
  }
  if (!end) return null;
  return { start: (before ?? firstInMonth ?? end).count, end: end.count };
}

/** Everything the archive knows of one publication for the month. */
export interface MonthEntry {
  slug: string;
  name: string;
  url: string;
  imageUrl: string | null;
  presence: MonthPresence;
  /** Null for a publication whose followers are not counted (a plain feed), or were not counted by the month's end. */
  followers: { start: number; end: number } | null;
}

export interface ArchivedScope {
  /** Null for the scope of every publication. */
  topic: ArchiveTopic | null;
  publicationCount: number;
  boards: ArchiveBoards;
}

export interface ComputedArchive {
  month: string;
  overall: ArchivedScope;
  /** The largest topic first. */
  topics: ArchivedScope[];
  /** Every topic of the month, the largest first: the page's topic picker. */
  topicList: ArchiveTopic[];
}

interface Figures {
  entry: MonthEntry;
  followers: number | null;
  gained: number | null;
  growthPct: number | null;
}

function figuresOf(entry: MonthEntry): Figures {
  if (!entry.followers) return { entry, followers: null, gained: null, growthPct: null };
  const { start, end } = entry.followers;
  const gained = end - start;
  return { entry, followers: end, gained, growthPct: start > 0 ? Math.round((gained / start) * 10_000) / 100 : null };
}

const bySlug = (a: Figures, b: Figures) => (a.entry.slug < b.entry.slug ? -1 : a.entry.slug > b.entry.slug ? 1 : 0);

const ORDERS: Record<ArchiveBoardKind, { admits: (row: Figures) => boolean; compare: (a: Figures, b: Figures) => number }> = {
  followers: {
    admits: (row) => row.followers !== null,
    compare: (a, b) => (b.followers ?? 0) - (a.followers ?? 0) || (b.gained ?? 0) - (a.gained ?? 0) || bySlug(a, b),
  },
  growth: {
    admits: (row) => (row.gained ?? 0) > 0,
    compare: (a, b) =>
      (b.gained ?? 0) - (a.gained ?? 0) ||
      (b.growthPct ?? Number.NEGATIVE_INFINITY) - (a.growthPct ?? Number.NEGATIVE_INFINITY) ||
      (b.followers ?? 0) - (a.followers ?? 0) ||
      bySlug(a, b),
  },
  activity: {
    admits: (row) => row.entry.presence.activeDays > 0,
    compare: (a, b) =>
      b.entry.presence.activeDays - a.entry.presence.activeDays || (b.followers ?? -1) - (a.followers ?? -1) || bySlug(a, b),
  },
};

function rowOf(row: Figures, rank: number): ArchiveRow {
  const { slug, name, url, imageUrl, presence } = row.entry;
  return {
    rank,
    slug,
    name,
    url,
    imageUrl,
    followers: row.followers,
    gained: row.gained,
    growthPct: row.growthPct,
    activeDays: presence.activeDays,
  };
}

/** The top `size` of each board, from rows already in each board's order. */
function boardsOf(ordered: Record<ArchiveBoardKind, Figures[]>, topic: string | null, size: number): ArchiveBoards {
  const take = (kind: ArchiveBoardKind) => {
    const rows: ArchiveRow[] = [];
    for (const row of ordered[kind]) {
      if (rows.length === size) break;
      if (topic === null || row.entry.presence.topics.includes(topic)) rows.push(rowOf(row, rows.length + 1));
    }
    return rows;
  };
  return { followers: take('followers'), growth: take('growth'), activity: take('activity') };
}

/**
 * A month's archive: the most followed at its end, the fastest growing over it and the most
 * active in it, of every publication and of each topic, `size` rows each. Each board is sorted
 * once; a topic's board is the overall order filtered, so its ranks agree with the overall one.
 */
export function computeMonthArchive(month: string, entries: readonly MonthEntry[], size = ARCHIVE_BOARD_SIZE): ComputedArchive {
  const figures = entries.map(figuresOf);
  const ordered = Object.fromEntries(
    (Object.keys(ORDERS) as ArchiveBoardKind[]).map((kind) => [
      kind,
      figures.filter(ORDERS[kind].admits).sort(ORDERS[kind].compare),
    ]),
  ) as Record<ArchiveBoardKind, Figures[]>;

  const counts = new Map<string, number>();
  for (const entry of entries) for (const tag of entry.presence.topics) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const topics: ArchiveTopic[] = [...counts]
    .map(([tag, publicationCount]) => ({ tag, name: topicName(tag), publicationCount }))
    .sort((a, b) => b.publicationCount - a.publicationCount || (a.tag < b.tag ? -1 : 1));

  const overall: ArchivedScope = { topic: null, publicationCount: entries.length, boards: boardsOf(ordered, null, size) };
  const byTopic = topics.map((topic) => ({
    topic,
    publicationCount: topic.publicationCount,
    boards: boardsOf(ordered, topic.tag, size),
  }));

  return { month, overall, topics: byTopic, topicList: topics };
}

/**
 * Each publication's places on a month's boards (slug -> places), from the month's scopes:
 * only publications that made a board are named.
 */
export function placementsOf(
  scopes: readonly Pick<ArchivedScope, 'topic' | 'boards'>[],
): Map<string, PublicationArchiveMonth['placements']> {
  const placements = new Map<string, PublicationArchiveMonth['placements']>();
  for (const scope of scopes) {
    for (const board of Object.keys(scope.boards) as ArchiveBoardKind[]) {
      for (const row of scope.boards[board]) {
        const places = placements.get(row.slug) ?? [];
        places.push({ topic: scope.topic?.tag ?? null, board, rank: row.rank });
        placements.set(row.slug, places);
      }
    }
  }
  return placements;
}
