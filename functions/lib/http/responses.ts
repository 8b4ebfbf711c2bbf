import { createHash } from 'node:crypto';

/**
 * A JSON body serialised ahead of time, with its ETag. Handlers whose answers are reused
 * (ranking boards) return these from their cache so a hit costs no serialisation or hashing.
 */
export class PreparedJson {
  readonly etag: string;
  constructor(readonly json: string) {
    this.etag = `W/"${createHash('sha1').update(json).digest('base64url')}"`;
  }

  static of(value: unknown): PreparedJson {
    return new PreparedJson(JSON.stringify(value));
  }
}

/** For answers that need a status other than 200, extra headers or cookies. */
export class HttpResponse {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    readonly cookies: string[] = [],
  ) {}
}
