import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { ScheduledEvent } from 'aws-lambda';
import { XMLParser } from 'fast-xml-parser';
import { PUBLICATION_SHARDS } from '../lib/db/entities/publication';
import { isConditionalCheckFailed } from '../lib/db/errors';
import { type Db, getDb } from '../lib/db/service';
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

const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
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
      const reason = describeError(error);
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
    throw new FeedError(`Not well-formed XML: ${describeError(error)}`);
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

/**
 * Fetches a feed as any URL from outside must be fetched, so it cannot reach private networks: http(s) only, every
 * address of every hop public, redirects followed by hand so each is checked, time and size capped.
 * The address check happens before fetch resolves the name again, so a DNS answer that changes
 * in between (rebinding) is not caught; the time cap bounds what such a request can do.
 */
export async function fetchFeedText(url: string, options: FetchFeedOptions = {}): Promise<string> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  let target = parseHttpUrl(url);
  for (let redirects = 0; ; redirects += 1) {
    if (!options.allowPrivateAddresses) await assertPublicHost(target.hostname);
    const response = await fetch(target, {
      redirect: 'manual',
      signal,
      headers: { accept: 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1' },
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (redirects >= MAX_REDIRECTS) throw new FeedError(`More than ${MAX_REDIRECTS} redirects`);
      target = parseHttpUrl(new URL(location, target).href);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new FeedError(`HTTP ${response.status}`);
    }
    return readCapped(response, options.maxBytes ?? DEFAULT_MAX_BYTES);
  }
}

function parseHttpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FeedError('Not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new FeedError('Only http and https feeds are read');
  return parsed;
}

/** Stops reading as soon as the body passes the cap, so a huge or endless response costs little. */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new FeedError(`Feed larger than ${maxBytes} bytes`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    total += read.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new FeedError(`Feed larger than ${maxBytes} bytes`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Loopback, private, carrier-grade NAT, link-local (cloud metadata), multicast and reserved ranges. */
const NON_PUBLIC = (() => {
  const list = new BlockList();
  const ipv4: Array<[string, number]> = [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ];
  const ipv6: Array<[string, number]> = [
    ['::', 128],
    ['::1', 128],
    ['64:ff9b::', 96],
    ['100::', 64],
    ['2001:db8::', 32],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ];
  for (const [network, prefix] of ipv4) list.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of ipv6) list.addSubnet(network, prefix, 'ipv6');
  return list;
})();

/** BlockList also matches IPv4-mapped IPv6 forms (::ffff:127.0.0.1) against the IPv4 ranges. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

async function assertPublicHost(hostname: string): Promise<void> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await resolveAll(host);
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
    throw new FeedError(`Refusing ${host}: it resolves to a non-public address`);
  }
}

async function resolveAll(host: string): Promise<string[]> {
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    throw new FeedError(`Cannot resolve ${host}`);
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'Timed out';
  // fetch reports network failures as "fetch failed" with the reason in `cause`.
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
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
