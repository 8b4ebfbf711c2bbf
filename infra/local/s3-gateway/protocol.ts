import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { errorXml, invalidArgument, S3Error } from './errors';
import { PRESIGN_PARAMETERS } from './signatures';

/** The bucket's CORS rule, the cloud bucket's: the app's origins may read and upload, and read ETags. */
export const CORS_RULE = {
  allowedMethods: ['GET', 'PUT', 'POST', 'HEAD'],
  exposeHeaders: ['ETag', 'Content-Range', 'Accept-Ranges'],
  maxAgeSeconds: 600,
} as const;

const RESPONSE_OVERRIDES: Readonly<Record<string, string>> = {
  'response-content-type': 'content-type',
  'response-content-language': 'content-language',
  'response-expires': 'expires',
  'response-cache-control': 'cache-control',
  'response-content-disposition': 'content-disposition',
  'response-content-encoding': 'content-encoding',
};
/** Request headers that describe this hop, or the signature s3rver is not to check again. */
/** Request headers that describe this hop, or the signature s3rver is not to check again. */
const NOT_FORWARDED = new Set([
  'authorization',
  'origin',
  'connection',
  'keep-alive',
  'proxy-connection',
  'expect',
  'upgrade',
  'te',
  'trailer',
  'access-control-request-method',
  'access-control-request-headers',
]);
/** Query parameters that are the signature (s3rver would check them again, as SigV2) or answered here. */
const NOT_FORWARDED_QUERY = new Set<string>([...PRESIGN_PARAMETERS, 'X-Amz-Security-Token', 'X-Amz-Content-Sha256', 'Signature']);

/** The request target: its raw path and query as sent, and what they name. */
export interface Target {
  rawPath: string;
  rawQuery: { name: string; value: string; raw: string }[];
  query: URLSearchParams;
  bucket: string;
  key: string;
}

const invalidUri = () => new S3Error('InvalidURI', "Couldn't parse the specified URI.", 400);

function decodeComponent(value: string, form = false): string {
  try {
    return decodeURIComponent(form ? value.replace(/\+/g, ' ') : value);
  } catch {
    throw invalidUri();
  }
}

export function parseTarget(url: string | undefined): Target {
  if (!url?.startsWith('/')) throw invalidUri();
  const questionMark = url.indexOf('?');
  const rawPath = questionMark < 0 ? url : url.slice(0, questionMark);
  const rawQuery = (questionMark < 0 ? '' : url.slice(questionMark + 1))
    .split('&')
    .filter((raw) => raw !== '')
    .map((raw) => {
      const equals = raw.indexOf('=');
      const name = decodeComponent(equals < 0 ? raw : raw.slice(0, equals), true);
      return { name, value: equals < 0 ? '' : decodeComponent(raw.slice(equals + 1), true), raw };
    });
  const [rawBucket = '', ...rawKey] = rawPath.slice(1).split('/');
  const bucket = decodeComponent(rawBucket);
  const key = decodeComponent(rawKey.join('/'));
  if (bucket && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new S3Error('InvalidBucketName', 'The specified bucket is not valid.', 400, { BucketName: bucket });
  }
  refuseUnsafeKey(key);
  return { rawPath, rawQuery, query: new URLSearchParams(rawQuery.map(({ name, value }) => [name, value])), bucket, key };
}

/**
 * s3rver turns a key into a path under its directory as it is: a `..` segment would read or write
 * outside it, and a `._S3rver_` name would overwrite its own records. S3 takes such keys; here
 * they are refused, a local limit no app key reaches.
 */
export function refuseUnsafeKey(key: string): void {
  if (key.split('/').some((segment) => segment === '.' || segment === '..' || segment.includes('._S3rver_'))) {
    throw invalidArgument('The local S3 does not store keys with "." or ".." segments or s3rver\'s own names.', 'key', key);
  }
}

export const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

export function upstreamPath(target: Target): string {
  const kept = target.rawQuery.filter(({ name }) => !NOT_FORWARDED_QUERY.has(name) && !name.startsWith('response-'));
  return kept.length === 0 ? target.rawPath : `${target.rawPath}?${kept.map(({ raw }) => raw).join('&')}`;
}

export function forwardedHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !NOT_FORWARDED.has(name) && !name.startsWith('proxy-')) kept[name] = value;
  }
  return kept;
}

export const hasBody = (request: IncomingMessage) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

export function corsHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': CORS_RULE.allowedMethods.join(', '),
    'Access-Control-Expose-Headers': CORS_RULE.exposeHeaders.join(', '),
    'Access-Control-Max-Age': String(CORS_RULE.maxAgeSeconds),
    'Access-Control-Allow-Credentials': 'true',
    Vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
  };
}

/** Whether the bucket's CORS rule lets this origin make this request. */
export const corsAllows = (allowedOrigins: readonly string[], origin: string | undefined, method: string | undefined) =>
  origin !== undefined &&
  allowedOrigins.includes(origin) &&
  (CORS_RULE.allowedMethods as readonly string[]).includes(method ?? '');

/** A preflight, answered from the bucket's CORS rule as S3 answers it. */
export function preflight(request: IncomingMessage, response: ServerResponse, target: Target, allowedOrigins: readonly string[]) {
  const origin = request.headers.origin;
  const method = request.headers['access-control-request-method'];
  if (!origin) throw new S3Error('BadRequest', 'Insufficient information. Origin request header needed.', 400);
  if (!method) throw new S3Error('BadRequest', 'Invalid Access-Control-Request-Method: null', 400);
  if (!corsAllows(allowedOrigins, origin, method)) {
    throw new S3Error(
      'AccessForbidden',
      "CORSResponse: This CORS request is not allowed. This is usually because the evalution of Origin, request method / Access-Control-Request-Method or Access-Control-Request-Headers are not whitelisted by the resource's CORS spec.",
      403,
      { Method: method, ResourceType: target.key ? 'OBJECT' : 'BUCKET' },
    );
  }
  const requested = request.headers['access-control-request-headers'];
  const allowHeaders = requested
    ? {
        'Access-Control-Allow-Headers': requested
          .split(',')
          .map((name) => name.trim().toLowerCase())
          .filter((name) => name !== '')
          .join(', '),
      }
    : {};
  response.writeHead(200, { ...corsHeaders(origin), ...allowHeaders, 'Content-Length': '0' }).end();
}

/** The headers a signed GET's `response-*` parameters set on its answer; InvalidArgument for one S3 does not know. */
export function responseOverrides(target: Target): Record<string, string> {
  const overrides: Record<string, string> = {};
  for (const { name, value } of target.rawQuery) {
    if (!name.startsWith('response-')) continue;
    const header = RESPONSE_OVERRIDES[name];
    if (!header) {
      throw invalidArgument(
        `${name} is not in the set of overridable response headers. Please refer to the S3 API documentation for a complete list of overridable response headers.`,
        name,
        value,
      );
    }
    overrides[header] = value;
  }
  return overrides;
}

/** s3rver's answer to the caller, with S3's CORS headers (set before) rather than s3rver's. */
export async function relay(
  upstream: IncomingMessage,
  response: ServerResponse,
  extra: Record<string, string> = {},
  /** Send this many bytes of the body only, then let go of the rest (a range cut from a longer answer). */
  bytesToSend?: number,
) {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (value === undefined || name.startsWith('access-control-') || name === 'vary') continue;
    if (name === 'connection' || name === 'keep-alive' || name === 'transfer-encoding') continue;
    headers[name] = value;
  }
  response.writeHead(upstream.statusCode ?? 502, { ...headers, ...extra });
  if (bytesToSend === undefined) {
    await pipeline(upstream, response);
    return;
  }
  let left = bytesToSend;
  await pipeline(async function* () {
    for await (const chunk of upstream as AsyncIterable<Buffer>) {
      if (left <= 0) break;
      const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
      left -= part.length;
      yield part;
    }
  }, response);
  upstream.destroy();
}

export function sendXml(response: ServerResponse, status: number, xml: string, headers: Record<string, string> = {}) {
  const body = Buffer.from(xml);
  response.writeHead(status, { ...headers, 'Content-Type': 'application/xml', 'Content-Length': String(body.length) });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}

/** A refusal as S3 answers it; anything else is an InternalError whose cause goes to the log. */
export function sendError(response: ServerResponse, error: unknown, requestId: string, log: (line: string) => void) {
  // Half an answer cannot be taken back, and a caller who went away hears nothing.
  if (response.headersSent || !response.socket || response.socket.destroyed) {
    response.destroy();
    return;
  }
  let refusal: S3Error;
  if (error instanceof S3Error) refusal = error;
  else {
    log(`S3 gateway: ${(error as Error).stack ?? String(error)}`);
    refusal = new S3Error('InternalError', 'We encountered an internal error. Please try again.', 500);
  }
  sendXml(response, refusal.status, errorXml(refusal, requestId));
}
