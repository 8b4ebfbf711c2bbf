import type { ScheduledEvent } from 'aws-lambda';
import { XMLParser } from 'fast-xml-parser';
import { PUBLICATION_SHARDS } from '../lib/db/entities/publication';
import { isConditionalCheckFailed } from '../lib/db/errors';
import { type Db, getDb } from '../lib/db/service';
import { describeFetchError, SafeFetchError, safeFetch } from '../lib/http/safe-fetch';
import { logger } from '../lib/logger';

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

/** A feed that could not be fetched or read; the message is safe to log. */
export class FeedError extends Error {
  override readonly name = 'FeedError';
}

const DEFAULT_CONCURRENCY = 8;
const MAX_REDIRECTS = 3;
/** Feeds whose clocks run ahead are believed this far; later dates are treated as typos. */
const FUTURE_TOLERANCE_MS = 86_400_000;

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
      const newest = newestFeedDate(await fetchFeed(publication.feedUrl), now);
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

const feedParser = new XMLParser({
  ignoreAttributes: true,
  // Dates must stay strings: '2024' would otherwise become a number.
  parseTagValue: false,
  // Only dates are read, so entities are never expanded (no entity-expansion blow-ups).
  processEntities: false,
  removeNSPrefix: true,
  isArray: (tagName) => tagName === 'item' || tagName === 'entry',
});

/** Elements that carry a post's date: RSS 2.0 pubDate, Dublin Core date (RSS 1.0), Atom. */
const DATE_FIELDS = ['pubDate', 'date', 'published', 'updated'] as const;

/**
 * The newest post date in an RSS 2.0, RSS 1.0 or Atom document; null when it lists no dated post.
 * Dates far in the future are ignored and slightly future ones capped at `now`.
 */
export function newestFeedDate(xml: string, now: Date = new Date()): Date | null {
  const posts = feedPosts(parseXml(xml));
  let newest: number | undefined;
  for (const post of posts) {
    for (const field of DATE_FIELDS) {
      const value = post[field];
      const time = typeof value === 'string' ? Date.parse(value.trim()) : Number.NaN;
      if (Number.isNaN(time) || time > now.getTime() + FUTURE_TOLERANCE_MS) continue;
      newest = Math.max(newest ?? time, time);
    }
  }
  return newest === undefined ? null : new Date(Math.min(newest, now.getTime()));
}

function parseXml(xml: string): Record<string, unknown> {
  try {
    const document: unknown = feedParser.parse(xml);
    if (isRecord(document)) return document;
  } catch (error) {
    throw new FeedError(`Not well-formed XML: ${describeFetchError(error)}`);
  }
  throw new FeedError('Not well-formed XML');
}

function feedPosts(document: Record<string, unknown>): Record<string, unknown>[] {
  const rss = document.rss;
  if (isRecord(rss)) return records(isRecord(rss.channel) ? rss.channel.item : undefined);
  // Atom: a feed with no entries is an empty string after parsing.
  if ('feed' in document) return records(isRecord(document.feed) ? document.feed.entry : undefined);
  if ('RDF' in document) return records(isRecord(document.RDF) ? document.RDF.item : undefined);
  throw new FeedError('Not an RSS or Atom feed');
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A feed's text, fetched as any URL from outside must be (functions/lib/http/safe-fetch.ts). */
export async function fetchFeedText(url: string, options: FetchFeedOptions = {}): Promise<string> {
  try {
    const { body } = await safeFetch(url, {
      ...options,
      maxRedirects: MAX_REDIRECTS,
      accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1',
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
