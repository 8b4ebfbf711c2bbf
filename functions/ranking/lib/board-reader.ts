import { LruCache } from '../../lib/lru-cache';
import type { PagingInput } from '../../../shared/schemas/common';
import { resolvePaging } from '../../../shared/schemas/common';
import type { Board, BoardPage, RankedPublication, Topic, TopicLeader } from '../../../shared/schemas/ranking';
import type { RankingManifestItem } from '../../lib/db/entities/ranking-manifest';
import type { Db } from '../../lib/db/service';
import { NotFound, ServiceUnavailable } from '../../lib/errors';
import { boardId, RANK_CHUNK_SIZE, SEARCH_BOARD_ID } from './domain/boards';
import { decodeChunk } from './domain/chunk-codec';
import type { Standing } from './domain/standing';
import { MANIFEST_NAME, SEARCH_CHUNK_SIZE, type SearchEntry } from './ranking-run';

/**
 * How long an instance trusts its copy of the manifest. Boards change hourly, so 30 s of
 * staleness is invisible, and it turns almost every page view into zero database reads.
 */
const MANIFEST_TTL_MS = 30_000;
const MAX_CACHED_CHUNKS = 600;

export type Manifest = Omit<RankingManifestItem, 'boardTotals' | 'topics'> & {
  boardTotals: Record<string, number>;
  /** Leaders are missing from a manifest written before topics kept them. */
  topics: (Topic & { leaders?: TopicLeader[] })[];
};

export class BoardReader {
  private manifest: { value: Manifest; fetchedAt: number } | undefined;
  private pendingManifest: Promise<Manifest> | undefined;
  // Chunks are immutable per run id, so they can be cached until evicted.
  private readonly chunks = new LruCache<Standing[]>(MAX_CACHED_CHUNKS);

  constructor(
    private readonly db: Db,
    private readonly clock: () => number = Date.now,
  ) {}

  async getManifest(options: { refresh?: boolean } = {}): Promise<Manifest> {
    const now = this.clock();
    if (!options.refresh && this.manifest && now - this.manifest.fetchedAt < MANIFEST_TTL_MS) return this.manifest.value;
    // Concurrent requests after expiry share one read.
    this.pendingManifest ??= this.fetchManifest().finally(() => {
      this.pendingManifest = undefined;
    });
    try {
      return await this.pendingManifest;
    } catch (error) {
      // Serve the last known boards while the database is briefly unavailable.
      if (this.manifest) return this.manifest.value;
      throw error;
    }
  }

  private async fetchManifest(): Promise<Manifest> {
    const { data } = await this.db.entities.rankingManifest.get({ name: MANIFEST_NAME }).go();
    if (!data) throw new ServiceUnavailable('The rankings are being computed for the first time. Please try again in a minute.');
    const value = data as Manifest;
    this.manifest = { value, fetchedAt: this.clock() };
    return value;
  }

  findTopic(manifest: Manifest, tag: string): Topic {
    const topic = manifest.topics.find((candidate) => candidate.tag === tag);
    if (!topic) throw new NotFound(`There is no topic called '${tag}'.`);
    return topic;
  }

  /** Rows [start, end) of a board, in rank order, from one BatchGet of at most two chunks. */
  private async readRows(manifest: Manifest, id: string, start: number, end: number, chunkSize: number): Promise<Standing[]> {
    if (end <= start) return [];
    const first = Math.floor(start / chunkSize);
    const last = Math.floor((end - 1) / chunkSize);
    const wanted = Array.from({ length: last - first + 1 }, (_, index) => first + index);
    const cacheKey = (chunk: number) => `${manifest.runId}|${id}|${chunk}`;
    const missing = wanted.filter((chunk) => !this.chunks.get(cacheKey(chunk)));
    if (missing.length > 0) {
      const { data } = await this.db.entities.rankChunk
        .get(missing.map((chunk) => ({ slot: manifest.slot, boardId: id, chunk })))
        .go();
      for (const item of data) {
        // The slot was reused by a newer run: our manifest is stale.
        if (item.runId !== manifest.runId) throw new StaleManifest();
        this.chunks.set(cacheKey(item.chunk), decodeChunk<Standing>(item.payload));
      }
    }
    const rows: Standing[] = [];
    for (const chunk of wanted) {
      const chunkRows = this.chunks.get(cacheKey(chunk));
      if (!chunkRows) throw new StaleManifest();
      rows.push(...chunkRows);
    }
    return rows.slice(start - first * chunkSize, end - first * chunkSize);
  }

  private async withFreshManifestOnStale<T>(read: (manifest: Manifest) => Promise<T>): Promise<T> {
    try {
      return await read(await this.getManifest());
    } catch (error) {
      if (!(error instanceof StaleManifest)) throw error;
      return read(await this.getManifest({ refresh: true }));
    }
  }

  async readBoardPage(board: Board, paging: PagingInput): Promise<BoardPage & { runId: string }> {
    return this.withFreshManifestOnStale(async (manifest) => {
      if (board.topic) this.findTopic(manifest, board.topic);
      const id = boardId(board);
      const total = manifest.boardTotals[id] ?? 0;
      const pageInfo = resolvePaging(paging, total);
      const start = Math.min(pageInfo.from, total);
      const end = Math.min(pageInfo.from + pageInfo.limit, total);
      let items: RankedPublication[];
      if (paging.sortOrder === 'desc') {
        const rows = await this.readRows(manifest, id, start, end, RANK_CHUNK_SIZE);
        items = rows.map((row, index) => ({ rank: start + index + 1, ...row }));
      } else {
        // Ascending pages count from the bottom of the board; ranks stay the board's ranks.
        const rows = await this.readRows(manifest, id, total - end, total - start, RANK_CHUNK_SIZE);
        items = rows.map((row, index) => ({ rank: total - end + index + 1, ...row })).reverse();
      }
      return { board, items, pageInfo, generatedAt: manifest.generatedAt, runId: manifest.runId };
    });
  }

  async readSearchIndex(): Promise<{ entries: SearchEntry[]; manifest: Manifest }> {
    return this.withFreshManifestOnStale(async (manifest) => {
      const total = manifest.boardTotals[SEARCH_BOARD_ID] ?? 0;
      const entries = (await this.readRows(manifest, SEARCH_BOARD_ID, 0, total, SEARCH_CHUNK_SIZE)) as unknown as SearchEntry[];
      return { entries, manifest };
    });
  }
}

class StaleManifest extends Error {}
