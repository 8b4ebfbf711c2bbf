import type { SourcePlatform } from '../../../../shared/schemas/ranking';
import { SafeFetchError, UnexpectedStatus } from '../../../lib/http/safe-fetch';

export type { SourcePlatform };

/** What an adapter reads of a publication, in the platform's words mapped to ours. */
export interface SourceSnapshot {
  platform: SourcePlatform;
  /**
   * The platform's own identity of the publication, which survives a rename or a move to a new
   * address (Medium's collection id; a feed's own address). Publications are matched on it, not
   * on their slug or URL.
   */
  canonicalId: string;
  name: string;
  /** The publication's home page, where a reader goes. */
  url: string;
  description: string | null;
  imageUrl: string | null;
  /** The platform's tags, lower-cased, in its order. */
  topics: string[];
  /** Followers or subscribers; null where the platform does not say (a plain feed). */
  followers: number | null;
  /** The newest post's time, ISO 8601; null when none is listed. */
  latestPostAt: string | null;
  /** Where its posts can be read as RSS or Atom. */
  feedUrl: string | null;
}

/** What a conditional request sends back to the platform: the document's ETag and Last-Modified. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

/** A fetched document: where the last redirect led, its text, and its validators when it had any. */
export interface FetchedDocument {
  url: string;
  contentType: string;
  body: string;
  validators?: Validators;
}

/**
 * How an adapter reads the web: the caller decides how (the SSRF-safe fetcher, politely, or a
 * fixture in tests). Non-2xx answers throw UnexpectedStatus; anything else a SafeFetchError.
 */
export type SourceFetch = (url: string, options: { accept: string; validators?: Validators }) => Promise<FetchedDocument>;

/**
 * The platform answered 304 to a conditional request made with validators from an earlier
 * collection: the document is the one the previous snapshot was read from. Not a failure.
 */
export class NotModified extends Error {
  override readonly name = 'NotModified';
  constructor(readonly url: string) {
    super(`${url} has not changed since it was last read`);
  }
}

/** A publication address an adapter recognised: the address to read it from, normalised. */
export interface SourceRef {
  platform: SourcePlatform;
  /** The normalised address (https, no query or fragment), also what a suggestion is keyed by. */
  url: string;
}

export interface SourceAdapter {
  readonly platform: SourcePlatform;
  /** The normalised reference when this adapter reads such an address, otherwise null. */
  recognise(url: URL): SourceRef | null;
  /**
   * One snapshot of the publication, now. With `previous` (the last snapshot), a document the
   * platform says has not changed since (NotModified) gives what it gave to `previous`.
   */
  collect(ref: SourceRef, fetch: SourceFetch, now: Date, previous?: SourceSnapshot): Promise<SourceSnapshot>;
  /**
   * Whom a collection asks and how often: the host its requests go to (the collector reads one
   * host's sources one after another, within that host's budget) and the requests one snapshot
   * costs at most, robots.txt aside.
   */
  requests(ref: SourceRef): { host: string; perSnapshot: number };
}

/** Why a publication could not be collected; the message is safe to log and to show. */
export class SourceError extends Error {
  override readonly name: string = 'SourceError';
}

/** The platform says the publication is not there (404) or is gone for good (410). */
export class SourceGone extends SourceError {
  override readonly name = 'SourceGone';
  constructor(
    readonly url: string,
    readonly status: 404 | 410,
  ) {
    super(status === 410 ? `${url} is gone (HTTP 410)` : `${url} was not found (HTTP 404)`);
  }
}

/** The platform asks us to slow down (429, or 503 with Retry-After). */
export class SourceRateLimited extends SourceError {
  override readonly name = 'SourceRateLimited';
  constructor(
    readonly url: string,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(`${url} asked us to slow down${retryAfterSeconds === undefined ? '' : ` for ${retryAfterSeconds} s`} (rate limited)`);
  }
}

/** The answer arrived but is not what the platform documents (a changed format, a login page). */
export class SourceUnreadable extends SourceError {
  override readonly name = 'SourceUnreadable';
}

/** Fetches through `fetch`, turning the answers every adapter treats alike into SourceErrors. */
export async function fetchSource(fetch: SourceFetch, url: string, accept: string): Promise<FetchedDocument> {
  try {
    return await fetch(url, { accept });
  } catch (error) {
    if (error instanceof UnexpectedStatus) {
      if (error.status === 404 || error.status === 410) throw new SourceGone(url, error.status);
      if (error.status === 429 || (error.status === 503 && error.retryAfterSeconds !== undefined)) {
        throw new SourceRateLimited(url, error.retryAfterSeconds);
      }
    }
    if (error instanceof SafeFetchError) throw new SourceError(`${url}: ${error.message}`, { cause: error });
    throw error;
  }
}

/**
 * Like fetchSource, for an adapter given the previous snapshot: that snapshot when the platform
 * answered 304 (the document has not changed since it was read), the document otherwise.
 */
export async function fetchSourceIfChanged(
  fetch: SourceFetch,
  url: string,
  accept: string,
  previous: SourceSnapshot | undefined,
): Promise<FetchedDocument | { unchanged: SourceSnapshot }> {
  try {
    return await fetchSource(fetch, url, accept);
  } catch (error) {
    if (!(error instanceof NotModified)) throw error;
    // Validators are only ever sent with a previous snapshot; a 304 without one is the platform's error.
    if (!previous) throw new SourceUnreadable(`${url} answered 304 Not Modified to a request without validators`);
    return { unchanged: previous };
  }
}

/** `value` as an https address, or null when it is not an http(s) URL. */
export function httpsUrl(value: unknown): string | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    url.protocol = 'https:';
    return url.href;
  } catch {
    return null;
  }
}
