import type { ScheduledEvent } from 'aws-lambda';
import { PUBLICATION_SHARDS } from '../lib/db/entities/publication';
import { isConditionalCheckFailed } from '../lib/db/errors';
import { type Db, getDb } from '../lib/db/service';
import { describeFetchError, SafeFetchError, safeFetch } from '../lib/http/safe-fetch';
import { logger } from '../lib/logger';
import { FEED_ACCEPT, FeedError, newestFeedDate } from './lib/feed-document';

export interface FeedPublication {
  slug: string;
  feedUrl: string;
  latestPostAt: string | undefined;
}

/** Where the collector reads its work from and writes results to; the db by default. */
export interface FeedStore {
  listFeedPublications(): Promise<FeedPublication[]>;
  /** Sets latestPostAt unless the stored value changed since it was listed; true when written. */
  updateLatestPost(publication: FeedPublication, latestPostAt: string, now: Date): Promise<boolean>;
}

/** Returns the feed document's text, or throws. */
export type FetchFeed = (url: string) => Promise<string>;

export interface FetchFeedOptions {
  /** Only for tests that serve feeds on 127.0.0.1: production refuses non-public addresses. */
  allowPrivateAddresses?: boolean;
  /** Deadline for the whole exchange: DNS, redirects and body. */
  timeoutMs?: number;
  maxBytes?: number;
}

export interface CollectFeedsOptions extends FetchFeedOptions {
  db?: Db;
  store?: FeedStore;
  fetchFeed?: FetchFeed;
  now?: Date;
  concurrency?: number;
}

export interface FeedFailure {
  slug: string;
  feedUrl: string;
  reason: string;
}

export interface CollectFeedsResult {
  /** Feeds attempted, failed ones included. */
  checked: number;
  updated: number;
  failed: number;
  failures: FeedFailure[];
}

const DEFAULT_CONCURRENCY = 8;
const MAX_REDIRECTS = 3;

export async function handler(_event: ScheduledEvent): Promise<Omit<CollectFeedsResult, 'failures'>> {
  const { checked, updated, failed } = await collectFeeds();
  return { checked, updated, failed };
}

/** Reads every publication feed and moves latestPostAt forward where a feed shows a newer post. */
export async function collectFeeds(options: CollectFeedsOptions = {}): Promise<CollectFeedsResult> {
  const store = options.store ?? dbFeedStore(options.db ?? getDb());
  const fetchFeed = options.fetchFeed ?? ((url: string) => fetchFeedText(url, options));
  const now = options.now ?? new Date();
  const publications = await store.listFeedPublications();
  const result: CollectFeedsResult = { checked: 0, updated: 0, failed: 0, failures: [] };

  await forEachLimited(publications, options.concurrency ?? DEFAULT_CONCURRENCY, async (publication) => {
    result.checked += 1;
    try {
      const newest = await newestFeedDate(await fetchFeed(publication.feedUrl), now);
      if (newest && isNewer(newest, publication.latestPostAt)) {
        if (await store.updateLatestPost(publication, newest.toISOString(), now)) result.updated += 1;
      }
    } catch (error) {
      // One broken feed (or a blip writing one result) must not cost the others their update.
      const reason = describeFetchError(error);
      result.failed += 1;
      result.failures.push({ slug: publication.slug, feedUrl: publication.feedUrl, reason });
      logger.warn('Feed not collected', { slug: publication.slug, feedUrl: publication.feedUrl, reason });
    }
  });

  logger.info('Feed collection finished', { checked: result.checked, updated: result.updated, failed: result.failed });
  return result;
}

function isNewer(candidate: Date, stored: string | undefined): boolean {
  if (stored === undefined) return true;
  const storedMs = Date.parse(stored);
  // An unreadable stored value is replaced rather than left to block updates forever.
  return Number.isNaN(storedMs) || candidate.getTime() > storedMs;
}

export function dbFeedStore(db: Db): FeedStore {
  return {
    async listFeedPublications() {
      const shards = await Promise.all(
        Array.from({ length: PUBLICATION_SHARDS }, (_, shard) =>
          db.entities.publication.query
            .byShard({ shard })
            .where(({ feedUrl }, { exists }) => exists(feedUrl))
            .go({ pages: 'all', attributes: ['slug', 'feedUrl', 'latestPostAt'] }),
        ),
      );
      return shards.flatMap(({ data }) =>
        data.flatMap(({ slug, feedUrl, latestPostAt }) => (feedUrl ? [{ slug, feedUrl, latestPostAt }] : [])),
      );
    },

    async updateLatestPost(publication, latestPostAt, now) {
      try {
        await db.entities.publication
          .patch({ slug: publication.slug })
          .set({ latestPostAt, updatedAt: now.toISOString() })
          // Ingestion writes with a revision check; bumping it makes a concurrent ingest re-read
          // instead of overwriting this value with an older one.
          .add({ revision: 1 })
          // Written only over the value this run compared against, so it never moves backwards.
          .where(({ latestPostAt: stored }, { eq, notExists }) =>
            publication.latestPostAt === undefined ? notExists(stored) : eq(stored, publication.latestPostAt),
          )
          .go({ response: 'none' });
        return true;
      } catch (error) {
        if (isConditionalCheckFailed(error)) return false;
        throw error;
      }
    },
  };
}

/** A feed's text, fetched as any URL from outside must be (functions/lib/http/safe-fetch.ts). */
export async function fetchFeedText(url: string, options: FetchFeedOptions = {}): Promise<string> {
  try {
    const { body } = await safeFetch(url, {
      ...options,
      maxRedirects: MAX_REDIRECTS,
      accept: FEED_ACCEPT,
    });
    return body;
  } catch (error) {
    throw error instanceof SafeFetchError ? new FeedError(error.message, { cause: error }) : error;
  }
}

async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
