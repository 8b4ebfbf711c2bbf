import robotsParser from 'robots-parser';
import { type SafeFetchResult, safeFetch, UnexpectedStatus } from '../../../lib/http/safe-fetch';
import { type FetchedDocument, NotModified, type SourceFetch, SourceError, type Validators } from './source-adapter';

/** Who we are, in every request and in the robots.txt groups we obey. */
export const COLLECTOR_USER_AGENT = 'TopPubsBot/1.0 (+https://toppubs.example/about; publication rankings)';
/** The token robots.txt groups name us by. */
export const COLLECTOR_ROBOTS_TOKEN = 'TopPubsBot';

/** One request to the web, as the SSRF-safe fetcher makes it. */
export type RawFetch = (
  url: string,
  options: { accept: string; userAgent: string; headers: Record<string, string> },
) => Promise<SafeFetchResult>;

export interface PoliteFetchOptions {
  /** Defaults to the SSRF-safe fetcher. */
  fetch?: RawFetch;
  /** The least time between two requests to one host; a longer robots.txt Crawl-delay wins. */
  minIntervalMs?: number;
  /** Requests one host may get from us in a UTC day, robots.txt included. */
  dailyBudgetPerHost?: number;
  /** Attempts after the first for a 429 or 5xx answer. */
  maxRetries?: number;
  /** A wait longer than this (asked for by Retry-After, or grown by backoff) is not waited out: the request fails. */
  maxWaitMs?: number;
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** The host's daily budget is spent: nothing more is asked of it until the next UTC day. */
export class HostBudgetSpent extends SourceError {
  override readonly name = 'HostBudgetSpent';
  constructor(readonly host: string) {
    super(`Today's budget of requests to ${host} is spent`);
  }
}

/** The host's robots.txt asks crawlers like us not to read this address. */
export class DisallowedByRobots extends SourceError {
  override readonly name = 'DisallowedByRobots';
  constructor(readonly url: string) {
    super(`robots.txt of ${new URL(url).host} does not allow reading ${url}`);
  }
}

/**
 * The host's robots.txt could not be read (a 5xx answer, or the host out of reach): RFC 9309
 * says to read nothing there until it can be, and that is all we know of the host.
 */
export class RobotsUnreachable extends SourceError {
  override readonly name = 'RobotsUnreachable';
  constructor(
    readonly host: string,
    options?: { cause?: unknown },
  ) {
    super(`robots.txt of ${host} could not be read, so nothing there is read for now`, options);
  }
}

interface HostState {
  /** Requests to the host wait for each other: one at a time. */
  queue: Promise<unknown>;
  lastRequestAt: number;
  day: string;
  spent: number;
  robots?: Promise<{ isAllowed: (url: string) => boolean; crawlDelayMs: number; unreachable?: unknown }>;
}

interface KnownDocument extends Validators {
  document: FetchedDocument;
}

const BACKOFF_BASE_MS = 1_000;

/**
 * A SourceFetch that reads the web as a good citizen: through the SSRF-safe fetcher with a
 * descriptive User-Agent; obeying robots.txt (fetched once per host, its Crawl-delay included;
 * a robots.txt that answers 5xx means stay away, one that is missing means welcome, as RFC 9309
 * says); one request at a time per host with a least interval between them; a daily budget per
 * host; backing off on 429 and 5xx, honouring Retry-After; and conditional requests (ETag,
 * Last-Modified), so an unchanged document costs the host a 304. One instance serves one
 * collection run.
 */
export function createPoliteFetch(options: PoliteFetchOptions = {}): SourceFetch {
  const rawFetch: RawFetch =
    options.fetch ??
    ((url, request) => safeFetch(url, { accept: request.accept, userAgent: request.userAgent, headers: request.headers }));
  const minIntervalMs = options.minIntervalMs ?? 1_000;
  const dailyBudget = options.dailyBudgetPerHost ?? 5_000;
  const maxRetries = options.maxRetries ?? 3;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const hosts = new Map<string, HostState>();
  const validators = new Map<string, KnownDocument>();

  const hostOf = (url: string): HostState => {
    const host = new URL(url).host;
    let state = hosts.get(host);
    if (!state) {
      state = { queue: Promise.resolve(), lastRequestAt: Number.NEGATIVE_INFINITY, day: '', spent: 0 };
      hosts.set(host, state);
    }
    return state;
  };

  /** One request, in the host's turn, after its interval, within its budget. */
  const inTurn = <T>(url: string, intervalMs: number, request: () => Promise<T>): Promise<T> => {
    const state = hostOf(url);
    const turn = state.queue.then(async () => {
      const today = new Date(clock()).toISOString().slice(0, 10);
      if (state.day !== today) {
        state.day = today;
        state.spent = 0;
      }
      if (state.spent >= dailyBudget) throw new HostBudgetSpent(new URL(url).host);
      const wait = state.lastRequestAt + intervalMs - clock();
      if (wait > 0) await sleep(wait);
      state.spent += 1;
      try {
        return await request();
      } finally {
        state.lastRequestAt = clock();
      }
    });
    // The next request waits for this one whatever its outcome.
    state.queue = turn.catch(() => undefined);
    return turn;
  };

  const robotsOf = (url: string) => {
    const state = hostOf(url);
    state.robots ??= (async () => {
      const robotsUrl = new URL('/robots.txt', url).href;
      try {
        const { body } = await inTurn(robotsUrl, minIntervalMs, () =>
          rawFetch(robotsUrl, { accept: 'text/plain', userAgent: COLLECTOR_USER_AGENT, headers: {} }),
        );
        const robots = robotsParser(robotsUrl, body);
        const delay = robots.getCrawlDelay(COLLECTOR_ROBOTS_TOKEN);
        return {
          isAllowed: (target: string) => robots.isAllowed(target, COLLECTOR_ROBOTS_TOKEN) !== false,
          crawlDelayMs: typeof delay === 'number' && delay > 0 ? Math.min(delay * 1000, maxWaitMs) : 0,
        };
      } catch (error) {
        // No robots.txt (4xx): no rules. An unreachable or failing one (5xx): read nothing today.
        if (error instanceof UnexpectedStatus && error.status >= 400 && error.status < 500) {
          return { isAllowed: () => true, crawlDelayMs: 0 };
        }
        if (error instanceof HostBudgetSpent) {
          // Not an answer about the rules: ask again once the budget allows.
          state.robots = undefined;
          throw error;
        }
        return { isAllowed: () => false, crawlDelayMs: 0, unreachable: error };
      }
    })();
    return state.robots;
  };

  return async (url, { accept, validators: given }) => {
    const robots = await robotsOf(url);
    if (robots.unreachable) throw new RobotsUnreachable(new URL(url).host, { cause: robots.unreachable });
    if (!robots.isAllowed(url)) throw new DisallowedByRobots(url);
    const intervalMs = Math.max(minIntervalMs, robots.crawlDelayMs);
    for (let attempt = 0; ; attempt += 1) {
      // This run's copy first; else what the caller kept from an earlier run (a 304 then says NotModified).
      const known = validators.get(url);
      const sent = known ?? given;
      const headers: Record<string, string> = {};
      if (sent?.etag) headers['if-none-match'] = sent.etag;
      if (sent?.lastModified) headers['if-modified-since'] = sent.lastModified;
      try {
        const result = await inTurn(url, intervalMs, () => rawFetch(url, { accept, userAgent: COLLECTOR_USER_AGENT, headers }));
        const learnt: Validators = {
          ...(result.etag ? { etag: result.etag } : {}),
          ...(result.lastModified ? { lastModified: result.lastModified } : {}),
        };
        const document: FetchedDocument = { url: result.url, contentType: result.contentType, body: result.body };
        if (result.etag || result.lastModified) {
          document.validators = learnt;
          validators.set(url, { document, ...learnt });
        }
        return document;
      } catch (error) {
        if (!(error instanceof UnexpectedStatus)) throw error;
        if (error.status === 304 && known) return known.document;
        if (error.status === 304 && given) throw new NotModified(url);
        const retriable = error.status === 429 || error.status >= 500;
        // Full jitter on a doubling base, unless the server said how long to wait.
        const wait =
          error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : random() * BACKOFF_BASE_MS * 2 ** attempt;
        if (!retriable || attempt >= maxRetries || wait > maxWaitMs) throw error;
        await sleep(wait);
      }
    }
  };
}
