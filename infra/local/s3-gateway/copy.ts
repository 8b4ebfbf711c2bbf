import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { invalidArgument, invalidRequest, S3Error, XML_DECLARATION, xmlEscape } from './errors';

/**
 * CopyObject as S3 answers it, for the gateway (operations.ts): s3rver copies, but reads the copy
 * source with `decodeURI` (a key with `%2C` or `%3F` in it is not found), checks none of the
 * `x-amz-copy-source-if-*` conditions, takes any metadata directive, and keeps a multipart
 * source's ETag where S3 gives the copy the MD5 of its bytes. The gateway does the copy itself
 * (a GET and a PUT to s3rver) with what this module parses and checks.
 */

/** S3 copies at most this much in one CopyObject; beyond it only UploadPartCopy does. */
export const MAX_COPY_SOURCE_BYTES = 5 * 1024 ** 3;

/** The object headers S3 keeps with an object, and so copies with it (s3rver keeps the same ones). */
const OBJECT_HEADERS = [
  'cache-control',
  'content-disposition',
  'content-encoding',
  'content-language',
  'content-type',
  'expires',
  'x-amz-website-redirect-location',
];

export interface CopySource {
  bucket: string;
  key: string;
}

/**
 * The `x-amz-copy-source` header: `bucket/key`, optionally with a leading slash, URL-encoded as a
 * whole, optionally followed by `?versionId=`. The local bucket keeps no versions, so only the
 * `null` version (the one an unversioned object has) is found.
 */
export function parseCopySource(header: string): CopySource {
  const questionMark = header.indexOf('?');
  const path = questionMark < 0 ? header : header.slice(0, questionMark);
  const query = new URLSearchParams(questionMark < 0 ? '' : header.slice(questionMark + 1));
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    throw invalidArgument('Invalid copy source encoding', 'x-amz-copy-source', header);
  }
  const trimmed = decoded.startsWith('/') ? decoded.slice(1) : decoded;
  const slash = trimmed.indexOf('/');
  if (slash <= 0 || slash === trimmed.length - 1) {
    throw invalidArgument(
      'Copy Source must mention the source bucket and key: sourcebucket/sourcekey',
      'x-amz-copy-source',
      header,
    );
  }
  const versionId = query.get('versionId');
  if (versionId !== null && versionId !== 'null') {
    throw invalidArgument('Invalid version id specified', 'x-amz-copy-source', header);
  }
  return { bucket: trimmed.slice(0, slash), key: trimmed.slice(slash + 1) };
}

/** `x-amz-metadata-directive` or `x-amz-tagging-directive`: COPY (the default) or REPLACE. */
export function directiveOf(headers: IncomingHttpHeaders, name: 'metadata' | 'tagging'): 'COPY' | 'REPLACE' {
  const header = `x-amz-${name}-directive`;
  const value = headers[header];
  if (value === undefined) return 'COPY';
  if (value === 'COPY' || value === 'REPLACE') return value;
  throw invalidArgument(`Unknown ${name} directive.`, header, String(value));
}

/** What S3 knows of the source when it checks the conditions. */
export interface SourceState {
  /** Quoted, as S3 answers it. */
  etag: string;
  lastModified: Date;
}

const unquoted = (etag: string) => etag.trim().replace(/^W\//, '').replace(/"/g, '');

function etagMatches(condition: string, etag: string): boolean {
  return condition.split(',').some((candidate) => candidate.trim() === '*' || unquoted(candidate) === unquoted(etag));
}

function dateOf(headers: IncomingHttpHeaders, name: string): Date | undefined {
  const value = headers[name];
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  // S3 ignores a date it cannot read, as HTTP says of If-Modified-Since.
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const preconditionFailed = (condition: string) =>
  new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412, {
    Condition: condition,
  });

/**
 * The copy's conditions on its source, as S3 documents them: If-Match and If-None-Match compare
 * ETags (quotes aside, `*` matching any), the dates compare at a second's precision. If-Match
 * holding overrides a failed If-Unmodified-Since, and If-None-Match failing with
 * If-Modified-Since holding still fails. A failed one is 412 PreconditionFailed, naming it.
 */
export function checkCopyConditions(headers: IncomingHttpHeaders, source: SourceState): void {
  const ifMatch = headers['x-amz-copy-source-if-match'];
  const ifNoneMatch = headers['x-amz-copy-source-if-none-match'];
  const ifUnmodifiedSince = dateOf(headers, 'x-amz-copy-source-if-unmodified-since');
  const ifModifiedSince = dateOf(headers, 'x-amz-copy-source-if-modified-since');
  const modified = Math.floor(source.lastModified.getTime() / 1000);
  if (typeof ifMatch === 'string') {
    if (!etagMatches(ifMatch, source.etag)) throw preconditionFailed('x-amz-copy-source-If-Match');
  } else if (ifUnmodifiedSince && modified > Math.floor(ifUnmodifiedSince.getTime() / 1000)) {
    throw preconditionFailed('x-amz-copy-source-If-Unmodified-Since');
  }
  if (typeof ifNoneMatch === 'string') {
    if (etagMatches(ifNoneMatch, source.etag)) throw preconditionFailed('x-amz-copy-source-If-None-Match');
  } else if (ifModifiedSince && modified <= Math.floor(ifModifiedSince.getTime() / 1000)) {
    throw preconditionFailed('x-amz-copy-source-If-Modified-Since');
  }
}

/** A source larger than one CopyObject may copy: S3's InvalidRequest. */
export function checkCopySize(size: number): void {
  if (size > MAX_COPY_SOURCE_BYTES) {
    throw invalidRequest(
      `The specified copy source is larger than the maximum allowable size for a copy source: ${MAX_COPY_SOURCE_BYTES}`,
    );
  }
}

/** A copy onto its own source changes nothing unless it replaces the metadata: S3 refuses it. */
export function checkNotCopyOntoItself(source: CopySource, target: CopySource, metadata: 'COPY' | 'REPLACE'): void {
  if (source.bucket === target.bucket && source.key === target.key && metadata === 'COPY') {
    throw invalidRequest(
      "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
    );
  }
}

/**
 * The headers the copy is stored with: the source's (COPY) or the request's (REPLACE), content
 * type included, and the source's or the request's `x-amz-meta-*`.
 */
export function copiedObjectHeaders(
  directive: 'COPY' | 'REPLACE',
  source: IncomingHttpHeaders,
  request: IncomingHttpHeaders,
): OutgoingHttpHeaders {
  const from = directive === 'COPY' ? source : request;
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(from)) {
    if (value !== undefined && (OBJECT_HEADERS.includes(name) || name.startsWith('x-amz-meta-'))) kept[name] = value;
  }
  return kept;
}

export function copyObjectResultXml(etag: string, lastModified: Date): string {
  return (
    `${XML_DECLARATION}<CopyObjectResult><LastModified>${lastModified.toISOString()}</LastModified>` +
    `<ETag>${xmlEscape(`"${unquoted(etag)}"`)}</ETag></CopyObjectResult>`
  );
}
