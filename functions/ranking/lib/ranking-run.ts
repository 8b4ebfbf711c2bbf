import { randomUUID } from 'node:crypto';
import type { Standing } from './domain/standing';
import { computeStanding } from './domain/standing';
import { RANK_CHUNK_SIZE, rankBoards, SEARCH_BOARD_ID } from './domain/boards';
import { encodeChunk } from './domain/chunk-codec';
import { type Day, toDay } from './domain/days';
import { boardRanksBySlug } from './domain/rank-history';
import { recordRankDay } from './rank-history';
import { announceClimbs } from './announce-climbs';
import { type BoardNewsReport, recordBoardNews } from './board-news';
import { logger } from '../../lib/logger';
import { PUBLICATION_SHARDS, type PublicationItem } from '../../lib/db/entities/publication';
import type { RankChunkItem } from '../../lib/db/entities/rank-chunk';
import type { Topic } from '../../../shared/schemas/ranking';
import { writeBatch } from '../../lib/db/batches';
import type { Db } from '../../lib/db/service';

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

type PublicationRow = Pick<
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

/**
 * Every publication on the boards, read shard by shard in parallel from the byShard index (no
 * Scan); one whose source is gone is left out.
 */
export async function readAllPublications(db: Db): Promise<PublicationRow[]> {
  const shards = await Promise.all(
    Array.from({ length: PUBLICATION_SHARDS }, (_, shard) =>
      db.entities.publication.query
        .byShard({ shard })
        .where((attribute, { notExists }) => notExists(attribute.offBoardsSince))
        .go({ pages: 'all', attributes: [...RANKING_ATTRIBUTES] }),
    ),
  );
  return shards.flatMap((result) => result.data as PublicationRow[]);
}

function chunkItems(slot: 'a' | 'b', runId: string, boardId: string, rowsJson: string[], chunkSize: number): RankChunkItem[] {
  const items: RankChunkItem[] = [];
  for (let start = 0, chunk = 0; start < rowsJson.length; start += chunkSize, chunk += 1) {
    const slice = rowsJson.slice(start, start + chunkSize);
    items.push({ slot, boardId, chunk, runId, rowCount: slice.length, payload: encodeChunk(slice) });
  }
  return items;
}

/** Pure part of a run: standings, boards, topics and the search index for `today`. */
export function rankPublications(publications: PublicationRow[], today: Day) {
  const standings = publications.map((publication) => computeStanding(publication, today));
  const ranked = rankBoards(standings);
  return { standings, ...ranked };
}

function searchEntries(boards: Map<string, Standing[]>, topics: readonly Topic[]): SearchEntry[] {
  const growthRank = new Map<string, number>();
  (boards.get('growth.all') ?? []).forEach((standing, index) => growthRank.set(standing.slug, index + 1));
  // Topics by position, not by tag: the filter needs them in the index, and positions are short.
  const topicPosition = new Map(topics.map((topic, position) => [topic.tag, position]));
  const entry = (standing: Standing, rank: number): SearchEntry => [
    standing.slug,
    standing.name,
    standing.followers,
    rank,
    growthRank.get(standing.slug) ?? 0,
    standing.isActive ? 1 : 0,
    standing.topics.flatMap((tag) => topicPosition.get(tag) ?? []),
  ];
  const byFollowers = (boards.get('followers.all') ?? []).map((standing, index) => entry(standing, index + 1));
  const followersUnknown = (boards.get('activity.all') ?? []).flatMap((standing, index) =>
    standing.followersKnown ? [] : [entry(standing, index + 1)],
  );
  return [...byFollowers, ...followersUnknown];
}

/**
 * Recomputes every board and publishes them atomically: chunks go to the slot not being read,
 * then the manifest flips to it. Readers holding the old manifest keep reading a whole run.
 */
export async function runRanking(db: Db, now: Date = new Date()): Promise<RankingRunReport> {
  const started = performance.now();
  let publications: PublicationRow[] | undefined = await readAllPublications(db);
  const publicationCount = publications.length;
  const read = performance.now();

  const { boards, topics, standings } = rankPublications(publications, toDay(now));
  publications = undefined;
  const ranked = performance.now();

  const current = await db.entities.rankingManifest.get({ name: MANIFEST_NAME }).go();
  const slot = current.data?.slot === 'a' ? 'b' : 'a';
  const runId = `${now.toISOString()}~${randomUUID().slice(0, 8)}`;
  // A publication appears on many boards: serialise it once.
  const rowJson = new Map<Standing, string>();
  const jsonOf = (standing: Standing) => {
    let json = rowJson.get(standing);
    if (json === undefined) {
      json = JSON.stringify(standing);
      rowJson.set(standing, json);
    }
    return json;
  };
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
  const write = async (boardId: string, rows: string[], chunkSize: number) => {
    const encodeStarted = performance.now();
    const items = chunkItems(slot, runId, boardId, rows, chunkSize);
    encodeMs += performance.now() - encodeStarted;
    boardTotals[boardId] = rows.length;
    pending.push(...items);
    if (pending.length >= WRITE_GROUP) await flush();
  };
  for (const [id, rows] of boards) await write(id, rows.map(jsonOf), RANK_CHUNK_SIZE);
  const search = searchEntries(boards, topics).map((entry) => JSON.stringify(entry));
  await write(SEARCH_BOARD_ID, search, SEARCH_CHUNK_SIZE);
  const searchChunks = Math.ceil(search.length / SEARCH_CHUNK_SIZE);
  await flush();
  // Before the manifest flips, so the page's current ranks are never behind the boards.
  const ranksBySlug = boardRanksBySlug(boards);
  await recordRankDay(db, { ranksBySlug, day: toDay(now), runId });

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
  const news = await recordBoardNews(db, { boards, runId, now }).catch((error: unknown) => {
    logger.error('Could not record the boards’ news for their feeds', { runId, error });
    return null;
  });
  // After the flip: followers hear of ranks the boards already show. News never fails the run.
  const announced = await announceClimbs(db, {
    ranksBySlug,
    standings: new Map(standings.map((standing) => [standing.slug, standing])),
    topics,
    runId,
    now,
  }).catch((error: unknown) => {
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
