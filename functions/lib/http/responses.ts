import { createHash } from 'node:crypto';

/**
 * A JSON body serialised ahead of time, with its ETag. Handlers whose answers are reused
 * (ranking boards) return these from their cache so a hit costs no serialisation or hashing.
 * The type parameter is the body's shape, so a prepared answer is checked against the route's
 * response type like any other.
 */
export class PreparedJson<T = unknown> {
  declare private readonly body?: T;
  private hash: string | undefined;
  constructor(readonly json: string) {}

  /** Hashed on first use: an answer that is never cached (a package) never needs it. */
  get etag(): string {
    this.hash ??= `W/"${createHash('sha1').update(this.json).digest('base64url')}"`;
    return this.hash;
  }

  static of<T>(value: T): PreparedJson<T> {
    return new PreparedJson<T>(JSON.stringify(value));
  }
}

export interface ReplyOptions {
  status?: number;
  headers?: Record<string, string>;
  cookies?: readonly string[];
}

/** A JSON answer that needs a status other than 200, extra headers or cookies. */
export class Reply<T> {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly cookies: readonly string[];
  constructor(
    readonly body: T,
    options: ReplyOptions = {},
  ) {
    this.statusCode = options.status ?? 200;
    this.headers = options.headers ?? {};
    this.cookies = options.cookies ?? [];
  }
}

export function reply<T>(body: T, options?: ReplyOptions): Reply<T> {
  return new Reply(body, options);
}

/** A 302 to `location`: the only answer a redirect route may give. */
export class Redirect {
  constructor(
    readonly location: string,
    readonly cookies: readonly string[] = [],
  ) {}
}

export function redirect(location: string, cookies: readonly string[] = []): Redirect {
  return new Redirect(location, cookies);
}

/**
 * A body that is not JSON (a sitemap's XML, a feed): the route's response schema is a string,
 * and the answer carries this content type. On a cacheable route a 200 also carries a strong
 * ETag of its bytes, and a request naming it gets a 304 (feed readers poll with If-None-Match).
 */
export class TextDocument {
  private hash: string | undefined;
  constructor(
    readonly contentType: string,
    readonly text: string,
    /** 200 unless said; any other status is never kept by a cache (a page that is not there may be soon). */
    readonly statusCode = 200,
  ) {}

  /** Strong: the same text is the same bytes (UTF-8), whatever the content type says. */
  get etag(): string {
    this.hash ??= `"${createHash('sha1').update(this.text).digest('base64url')}"`;
    return this.hash;
  }
}
