import type { Board, BoardKind } from '../../../../shared/schemas/ranking';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { BoardRanks, DaysOfRanks, MonthOfRanks } from '../../../lib/db/entities/rank-history';

/** Days of rank and follower history the publication page charts. */
export const HISTORY_DAYS = 90;
/**
 * Fixed for good: a publication's bucket must never move, or its history would split. 1,024
 * buckets hold about 17 publications each at 17,000 (a full month is ~20 KB compressed, so a
 * page decodes little), and stay far under DynamoDB's 400 KB item limit past 100,000.
 */
export const RANK_HISTORY_BUCKETS = 1_024;

/**
 * Buckets read (and written) together. At 200,000 publications a bucket's full month is some
 * 260 KB stored: 32 of them stay well under BatchGet's 16 MB, and a group's payloads, old and
 * new, under 20 MB of memory.
 */
export const RANK_HISTORY_BUCKET_GROUP = 32;

export function monthOf(day: string): string {
  return day.slice(0, 7);
}

/** Epoch seconds: a month's item outlives the month by the chart's reach, then the TTL drops it. */
export function rankHistoryExpiry(month: string): number {
  const [year, monthIndex] = month.split('-').map(Number) as [number, number];
  return Math.floor(Date.UTC(year, monthIndex, 1) / 1000) + (HISTORY_DAYS + 5) * 86_400;
}

export function encodeMonth(ranks: MonthOfRanks): string {
  const lines = Object.entries(ranks).map(([slug, days]) => `\n${slug}\t${JSON.stringify(days)}`);
  return gzipSync(lines.join(''), { level: 6 }).toString('base64');
}

function inflate(payload: string): string {
  return gunzipSync(Buffer.from(payload, 'base64')).toString('utf8');
}

export function decodeMonth(payload: string): MonthOfRanks {
  const ranks: MonthOfRanks = {};
  for (const line of inflate(payload).split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) ranks[line.slice(0, tab)] = JSON.parse(line.slice(tab + 1)) as DaysOfRanks;
  }
  return ranks;
}

/**
 * A bucket's month with one day's ranks set: each publication's line is parsed, given the day and
 * written again on its own, and publications new to the bucket are added at the end. At 200,000
 * publications a full month of a bucket is some 1.6 MB of text, which as one object of every
 * publication's days took several times that.
 */
export function withDayOfRanks(payload: string | undefined, dayOfMonth: string, ranks: Iterable<[string, BoardRanks]>): string {
  const pending = new Map(ranks);
  const lines: string[] = [];
  for (const line of payload ? inflate(payload).split('\n') : []) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    const slug = line.slice(0, tab);
    const today = pending.get(slug);
    if (today === undefined) {
      lines.push(`\n${line}`);
      continue;
    }
    pending.delete(slug);
    const days = JSON.parse(line.slice(tab + 1)) as DaysOfRanks;
    days[dayOfMonth] = today;
    lines.push(`\n${slug}\t${JSON.stringify(days)}`);
  }
  for (const [slug, today] of pending) lines.push(`\n${slug}\t${JSON.stringify({ [dayOfMonth]: today })}`);
  return gzipSync(lines.join(''), { level: 6 }).toString('base64');
}

/**
 * One publication's month, decoding only its own line: the inflated bucket is searched as bytes
 * (slugs are ASCII and hold no tab or newline, JSON neither), so the page never turns the other
 * publications' lines into a string.
 */
export function monthOfSlug(payload: string, slug: string): DaysOfRanks | undefined {
  const bytes = gunzipSync(Buffer.from(payload, 'base64'));
  const key = `\n${slug}\t`;
  const start = bytes.indexOf(key, 0, 'utf8');
  if (start < 0) return undefined;
  const from = start + Buffer.byteLength(key);
  const end = bytes.indexOf(0x0a, from);
  return JSON.parse(bytes.toString('utf8', from, end < 0 ? undefined : end)) as DaysOfRanks;
}

/**
 * The chosen publications' rank on every board they are on, from the boards of one run: what a
 * publication's page lists and charts, and what follows it from day to day. Keyed by position in
 * the run's columns, in the order the boards first name them; each one's ranks in board order.
 * A publication whose followers are known is ranked by them; its place by recency moves with
 * every post anyone makes, so it is kept only for those ranked on activity alone (a third more
 * history for every publication otherwise, and a slower ranking run). The job asks for a group
 * of history buckets at a time, so it never holds every publication's ranks at once.
 */
export function boardRanksOf(
  boards: ReadonlyMap<string, Int32Array>,
  followersKnown: readonly boolean[],
  chosen: (index: number) => boolean,
): Map<number, BoardRanks> {
  const byIndex = new Map<number, BoardRanks>();
  for (const [boardId, rows] of boards) {
    const byActivity = parseBoardId(boardId)?.kind === 'activity';
    for (let position = 0; position < rows.length; position += 1) {
      const index = rows[position] as number;
      if ((byActivity && followersKnown[index]) || !chosen(index)) continue;
      let ranks = byIndex.get(index);
      if (!ranks) {
        ranks = {};
        byIndex.set(index, ranks);
      }
      ranks[boardId] = position + 1;
    }
  }
  return byIndex;
}

/** The board a boardId names ('growth.active.topic.ux'), or null for anything else (the search index). */
export function parseBoardId(id: string): Board | null {
  const match = /^(followers|growth|activity)\.(all|active)(?:\.topic\.(.+))?$/.exec(id);
  if (!match) return null;
  return { kind: match[1] as BoardKind, activeOnly: match[2] === 'active', topic: match[3] ?? null };
}

const KIND_ORDER: Record<BoardKind, number> = { followers: 0, growth: 1, activity: 2 };

/**
 * Overall boards first, then active only, then topics by name; most followed, then fastest
 * growing, then recently active.
 */
export function compareBoards(a: Board, b: Board): number {
  const group = (board: Board) => (board.topic ? 2 : board.activeOnly ? 1 : 0);
  return (
    group(a) - group(b) ||
    (a.topic ?? '').localeCompare(b.topic ?? '') ||
    Number(a.activeOnly) - Number(b.activeOnly) ||
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind]
  );
}

const KIND_NAMES: Record<BoardKind, string> = {
  followers: 'Most followed',
  growth: 'Fastest growing',
  activity: 'Recently active',
};

/** "Most followed · UX, active only": a board as people read it. */
export function boardName(board: Board, topicName: string | null): string {
  const kind = KIND_NAMES[board.kind];
  const scope = topicName ? `${kind} · ${topicName}` : kind;
  return board.activeOnly ? `${scope}, active only` : scope;
}
