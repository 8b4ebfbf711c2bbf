/**
 * Errors a handler may throw. Anything below 500 is shown to the caller as
 * `{ message, code, ...details }`; anything else is logged and answered as a generic 500.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export interface FieldError {
  /** Where the field was: path parameter, query string or body. */
  in: 'params' | 'query' | 'body' | 'header';
  field: string;
  message: string;
}

export class BadRequest extends HttpError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(400, 'BAD_REQUEST', message, details);
  }
}

export class ValidationFailed extends HttpError {
  constructor(readonly fields: FieldError[]) {
    const summary = fields
      .slice(0, 3)
      .map((field) => `${field.field}: ${field.message}`)
      .join('; ');
    super(400, 'VALIDATION_FAILED', `Invalid request: ${summary}`, { fields });
  }
}

export class Unauthorized extends HttpError {
  constructor(message = 'You need to be signed in to do that.') {
    super(401, 'UNAUTHORIZED', message);
  }
}

export class Forbidden extends HttpError {
  constructor(message = 'You are not allowed to do that.') {
    super(403, 'FORBIDDEN', message);
  }
}

export class NotFound extends HttpError {
  constructor(message: string) {
    super(404, 'NOT_FOUND', message);
  }
}

export class Conflict extends HttpError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(409, 'CONFLICT', message, {}, options);
  }
}

/** Was there, is no more (an expired transfer): the caller learns when it ended. */
export class Gone extends HttpError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(410, 'GONE', message, details);
  }
}

/** Well-formed, but nothing we can act on is there (a publication address that leads to none). */
export class Unprocessable extends HttpError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(422, 'UNPROCESSABLE', message, {}, options);
  }
}

export class PayloadTooLarge extends HttpError {
  constructor(limitBytes: number) {
    super(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${Math.round(limitBytes / 1024)} KB.`);
  }
}

export class UnsupportedMediaType extends HttpError {
  constructor() {
    super(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json.');
  }
}

export class RateLimited extends HttpError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, 'RATE_LIMITED', message, { retryAfterSeconds });
  }
}

export class ServiceUnavailable extends HttpError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(503, 'SERVICE_UNAVAILABLE', message, {}, options);
  }
}

const UNAVAILABLE_ERROR_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'ServiceUnavailable',
  'InternalServerError',
  'TimeoutError',
  'RequestTimeout',
]);
const UNAVAILABLE_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * True when the error (or anything in its cause chain) means the database is throttling or
 * out of reach: the caller should retry later, which is a 503, not our bug.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth += 1) {
    const candidate = current as { name?: string; code?: string; cause?: unknown; $metadata?: { httpStatusCode?: number } };
    if (candidate.name && UNAVAILABLE_ERROR_NAMES.has(candidate.name)) return true;
    if (candidate.code && UNAVAILABLE_ERROR_CODES.has(candidate.code)) return true;
    if ((candidate.$metadata?.httpStatusCode ?? 0) >= 500) return true;
    // AggregateError from a failed connection to every resolved address.
    if (current instanceof AggregateError && current.errors.some(isDependencyUnavailable)) return true;
    current = candidate.cause;
  }
  return false;
}
