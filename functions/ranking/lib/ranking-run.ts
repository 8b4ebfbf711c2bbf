import { randomUUID } from 'node:crypto';
import { computeStanding } from './domain/standing';
import { StandingColumns } from './domain/standing-columns';
import { RANK_CHUNK_SIZE, rankColumns, SEARCH_BOARD_ID } from './domain/boards';
import { encodeChunk } from './domain/chunk-codec';
import { type Day, toDay } from './domain/days';
import { boardRanksOf } from './domain/rank-history';
import { recordRankDay } from './rank-history';
import { announceClimbs, type WatchedStanding } from './announce-climbs';
import { type BoardNewsReport, recordBoardNews } from './board-news';
import type { NewsRow } from './domain/board-news';
import { logger } from '../../lib/logger';
import { PUBLICATION_SHARDS, type PublicationItem } from '../../lib/db/entities/publication';
import type { RankChunkItem } from '../../lib/db/entities/rank-chunk';
import type { BoardRanks } from '../../lib/db/entities/rank-history';
import type { Topic } from '../../../shared/schemas/ranking';
import { writeBatch } from '../../lib/db/batches';
import type { Db } from '../../lib/db/service';
import { inGroups } from '../../lib/in-groups';

export const MANIFEST_NAME = 'current';
/**
 * Search index rows: [slug, name, followers, rank, growthRank, active (1 or 0), topics as
 * positions in the run's manifest topics]. The rank is on the most-followed board, or for a
 * publication whose followers are not known (after all the others, growthRank 0) on the
 * activity board. The last two are optional: a run from before they existed has none, and
 * filters then match nothing until the next run.
 */
export type SearchEntry = [string, string, number, number, number, (0 | 1)?, number[]?];
export const SEARCH_CHUNK_SIZE = 4_000;
const WRITE_CONCURRENCY = 8;
/** Chunks encoded ahead of the writes: enough to keep every BatchWrite slot busy. */
const WRITE_GROUP = WRITE_CONCURRENCY * 25 * 2;

export interface RankingRunReport {
  runId: string;
  publications: number;
  boards: number;
  chunks: number;
  /** The followed publications looked at, those with news, and the fan-out messages queued for them (null when it failed). */
  announced: { watched: number; withNews: number; queued: number } | null;
  /** The boards' feeds brought up to date: boards looked at, items written, time (null when it failed). */
  news: BoardNewsReport | null;
  timings: { readMs: number; rankMs: number; encodeMs: number; writeMs: number; totalMs: number };
}

export type PublicationRow = Pick<
  PublicationItem,
  | 'slug'
  | 'name'
  | 'url'
  | 'imageUrl'
  | 'topics'
  | 'followersKnown'
  | 'followers'
  | 'latestPostAt'
  | 'recentEndDay'
  | 'recentCounts'
>;

const RANKING_ATTRIBUTES = [
  'slug',
  'name',
  'url',
  'imageUrl',
  'topics',
  'followersKnown',
  'followers',
  'latestPostAt',
  'recentEndDay',
  'recentCounts',
] as const;

/** Shards read at once: each holds a page of publications in memory until it is ranked. */
const READ_CONCURRENCY = 4;

/**
 * Every publication on the boards, a page at a time, from the byShard index (no Scan); one whose
 * source is gone is left out. A few shards are read at once, and each page is handed over before
 * the next is asked for, so the caller decides what of it to keep.
 */
export async function forEachPublicationPage(db: Db, visit: (rows: PublicationRow[]) => void): Promise<void> {
  const shards = Array.from({ length: PUBLICATION_SHARDS }, (_, shard) => shard);
  await inGroups(shards, READ_CONCURRENCY, async (shard) => {
    let cursor: string | null = null;
    do {
      const page: { data: unknown[]; cursor: string | null } = await db.entities.publication.query
        .byShard({ shard })
        .where((attribute, { notExists }) => notExists(attribute.offBoardsSince))
        .go({ attributes: [...RANKING_ATTRIBUTES], ...(cursor ? { cursor } : {}) });
      visit(page.data as PublicationRow[]);
      cursor = page.cursor;
    } while (cursor);
  });
}

/** Every publication on the boards, at once: for a look at a small table (the tests, the 17,000 bench), not for a job. */
export async function readAllPublications(db: Db): Promise<PublicationRow[]> {
  const rows: PublicationRow[] = [];
  await forEachPublicationPage(db, (page) => rows.push(...page));
  return rows;
}

/**
 * A run's publications as the job keeps them: the columns the boards sort by, and each one's row
 * as its chunks store it, serialised once (a publication is on some 13 boards). Nothing else of a
 * publication outlives its page.
 */
export class RunTable {
  readonly columns = new StandingColumns();
  readonly rowJson: string[] = [];

  constructor(readonly today: Day) {}

  add(publication: PublicationRow): void {
    const standing = computeStanding(publication, this.today);
    this.columns.add(standing);
    this.rowJson.push(JSON.stringify(standing));
  }
}

/** Pure part of a run: the boards and topics of `today` from the publications. */
export function rankPublications(publications: readonly PublicationRow[], today: Day) {
  const table = new RunTable(today);
  for (const publication of publications) table.add(publication);
  return { table, ...rankColumns(table.columns) };
}

/** A board's rows as its chunks store them, made one at a time as the chunks are encoded. */
interface ChunkRows {
  count: number;
  jsonAt: (position: number) => string;
}

function chunkItems(slot: 'a' | 'b', runId: string, boardId: string, rows: ChunkRows, chunkSize: number): RankChunkItem[] {
  const items: RankChunkItem[] = [];
  for (let start = 0, chunk = 0; start < rows.count; start += chunkSize, chunk += 1) {
    const slice: string[] = [];
    for (let position = start; position < Math.min(start + chunkSize, rows.count); position += 1)
      slice.push(rows.jsonAt(position));
    items.push({ slot, boardId, chunk, runId, rowCount: slice.length, payload: encodeChunk(slice) });
  }
  return items;
}

/**
 * The search index's rows: every publication on the most followed board in its order, then
 * those whose followers are not known in their order by activity. Each row is made when its
 * chunk is written.
 */
function searchRows(columns: StandingColumns, boards: ReadonlyMap<string, Int32Array>, topics: readonly Topic[]): ChunkRows {
  const growthRank = new Int32Array(columns.size);
  (boards.get('growth.all') ?? new Int32Array()).forEach((index, position) => (growthRank[index] = position + 1));
  // Topics by position in the manifest, not by tag: the filter needs them in the index, and positions are short.
  const manifestPosition = new Map(topics.map((topic, position) => [topic.tag, position]));
  const topicPosition = columns.topicTags.map((tag) => manifestPosition.get(tag));
  const byFollowers = boards.get('followers.all') ?? new Int32Array();
  const byActivity = boards.get('activity.all') ?? new Int32Array();
  const indexes: number[] = [...byFollowers];
  const ranks: number[] = byFollowers.length > 0 ? Array.from(byFollowers, (_, position) => position + 1) : [];
  byActivity.forEach((index, position) => {
    if (columns.followersKnown[index]) return;
    indexes.push(index);
    ranks.push(position + 1);
  });
  const entryAt = (position: number): SearchEntry => {
    const index = indexes[position] as number;
    return [
      columns.slugs[index] as string,
      columns.names[index] as string,
      columns.followers[index] as number,
      ranks[position] as number,
      growthRank[index] as number,
      columns.isActive[index] ? 1 : 0,
      columns.topicsOf(index).flatMap((topic) => topicPosition[topic] ?? []),
    ];
  };
  return { count: indexes.length, jsonAt: (position: number) => JSON.stringify(entryAt(position)) };
}

/** A board's first `limit` rows, as its feed's news reads them. */
function newsRows(columns: StandingColumns, board: Int32Array | undefined, limit: number): NewsRow[] {
  return Array.from((board ?? new Int32Array()).subarray(0, limit), (index) => ({
    slug: columns.slugs[index] as string,
    name: columns.names[index] as string,
    followers: columns.followers[index] as number,
    followers7dAgo: columns.followers7dAgo[index] as number,
  }));
}

/** The followed publications among the run's, as the announcements read them; one pass over the boards. */
function watchedStandings(
  columns: StandingColumns,
  ranksOf: (chosen: (index: number) => boolean) => Map<number, BoardRanks>,
  slugs: readonly string[],
): Map<string, WatchedStanding> {
  const wanted = new Set(slugs);
  const found = new Map<number, string>();
  columns.slugs.forEach((slug, index) => wanted.has(slug) && found.set(index, slug));
  const ranks = ranksOf((index) => found.has(index));
  return new Map(
    Array.from(found, ([index, slug]) => [
      slug,
      { name: columns.names[index] as string, isActive: columns.isActive[index] === true, ranks: ranks.get(index) ?? {} },
    ]),
  );
}

/**
 * Recomputes every board and publishes them atomically: chunks go to the slot not being read,
 * then the manifest flips to it. Readers holding the old manifest keep reading a whole run.
 */
export async function runRanking(db: Db, now: Date = new Date()): Promise<RankingRunReport> {
  const started = performance.now();
  const table = new RunTable(toDay(now));
  await forEachPublicationPage(db, (rows) => {
    for (const row of rows) table.add(row);
  });
  const { columns, rowJson } = table;
  const publicationCount = columns.size;
  const read = performance.now();

  const { boards, topics } = rankColumns(columns);
  const ranked = performance.now();

  const current = await db.entities.rankingManifest.get({ name: MANIFEST_NAME }).go();
  const slot = current.data?.slot === 'a' ? 'b' : 'a';
  const runId = `${now.toISOString()}~${randomUUID().slice(0, 8)}`;
  const boardTotals: Record<string, number> = {};
  let encodeMs = 0;
  let chunks = 0;
  // Written in bounded groups as they are encoded, so a run never holds every chunk in memory.
  let pending: RankChunkItem[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    await writeBatch({
      items: pending,
      send: (items) => db.entities.rankChunk.put(items).go({ concurrent: WRITE_CONCURRENCY }),
      keyOf: (key) => `${key.slot}#${key.boardId}#${key.chunk}`,
      what: `chunks of ranking run ${runId}`,
    });
    chunks += pending.length;
    pending = [];
  };
  const write = async (boardId: string, rows: ChunkRows, chunkSize: number) => {
    const encodeStarted = performance.now();
    const items = chunkItems(slot, runId, boardId, rows, chunkSize);
    encodeMs += performance.now() - encodeStarted;
    boardTotals[boardId] = rows.count;
    pending.push(...items);
    if (pending.length >= WRITE_GROUP) await flush();
  };
  for (const [id, indexes] of boards)
    await write(
      id,
      { count: indexes.length, jsonAt: (position) => rowJson[indexes[position] as number] as string },
      RANK_CHUNK_SIZE,
    );
  const search = searchRows(columns, boards, topics);
  await write(SEARCH_BOARD_ID, search, SEARCH_CHUNK_SIZE);
  const searchChunks = Math.ceil(search.count / SEARCH_CHUNK_SIZE);
  await flush();
  const ranksOf = (chosen: (index: number) => boolean) => boardRanksOf(boards, columns.followersKnown, chosen);
  // Before the manifest flips, so the page's current ranks are never behind the boards.
  await recordRankDay(db, { ranks: { slugs: columns.slugs, ranksOf }, day: toDay(now), runId });

  await db.entities.rankingManifest
    .put({
      name: MANIFEST_NAME,
      runId,
      slot,
      generatedAt: now.toISOString(),
      publicationCount,
      boardTotals,
      topics,
      searchChunks,
    })
    .go();
  const written = performance.now();
  const writeMs = written - ranked - encodeMs;
  // After the flip, like the announcements: a feed tells what the boards already show, and never fails the run.
  const rowsOf = (boardId: string, limit: number) => newsRows(columns, boards.get(boardId), limit);
  const news = await recordBoardNews(db, { boardIds: boards.keys(), rowsOf, runId, now }).catch((error: unknown) => {
    logger.error('Could not record the boards’ news for their feeds', { runId, error });
    return null;
  });
  // After the flip: followers hear of ranks the boards already show. News never fails the run.
  const lookUp = (slugs: readonly string[]) => watchedStandings(columns, ranksOf, slugs);
  const announced = await announceClimbs(db, { lookUp, topics, runId, now }).catch((error: unknown) => {
    logger.error('Could not announce the followed publications’ news', { runId, error });
    return null;
  });

  return {
    runId,
    publications: publicationCount,
    boards: boards.size,
    chunks,
    announced,
    news,
    timings: {
      readMs: Math.round(read - started),
      rankMs: Math.round(ranked - read),
      encodeMs: Math.round(encodeMs),
      writeMs: Math.round(writeMs),
      totalMs: Math.round(written - started),
    },
  };
}
