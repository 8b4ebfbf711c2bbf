import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { crc32 } from 'node:zlib';
import { Sha256 } from '@smithy/core/checksum';
import { escapeUri } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import { accessDenied, invalidAccessKeyId, invalidArgument, invalidRequest, S3Error, signatureDoesNotMatch } from './errors';

/**
 * What S3 checks before it looks at a request: its SigV4 signature (Authorization header or
 * presigned query string), the payload the signature vouches for, and a browser POST's policy.
 * Signatures are recomputed with the SDK's own signer (@smithy/signature-v4, with the SHA-256
 * the S3 client signs with) from the request as it arrived, and compared in constant time, so a
 * request the cloud would refuse is refused here too.
 */

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
const SERVICE = 's3';
const MAX_PRESIGNED_SECONDS = 604_800;
const MAX_CLOCK_SKEW_MS = 15 * 60_000;
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
const STREAMING_UNSIGNED_TRAILER = 'STREAMING-UNSIGNED-PAYLOAD-TRAILER';
/** Any body that is not bytes in hand: the signer then hashes UNSIGNED-PAYLOAD, as S3 does for a presigned URL. */
const STREAMED_BODY = Object.freeze({ streamed: true });

/** The query parameters a presigned URL's signature is made of, not over. */
export const PRESIGN_PARAMETERS = [
  'X-Amz-Algorithm',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Expires',
  'X-Amz-SignedHeaders',
  'X-Amz-Signature',
] as const;

/** A request as it arrived: the path still percent-encoded, the query decoded, in order. */
export interface ArrivedRequest {
  method: string;
  rawPath: string;
  query: readonly (readonly [string, string])[];
  headers: IncomingHttpHeaders;
}

/**
 * What the signature says of the body. A presigned URL never covers it; a header-signed request
 * names its SHA-256 in x-amz-content-sha256, or says it is unsigned, or streams it aws-chunked
 * with its checksum in a trailer.
 */
export type SignedPayload = { kind: 'unsigned' } | { kind: 'sha256'; hex: string } | { kind: 'chunked-trailer' };

/** Refuses (S3Error) any request whose SigV4 signature is missing, malformed, expired or wrong. */
export async function verifyRequestSignature(
  request: ArrivedRequest,
  credentials: S3Credentials,
  now = new Date(),
): Promise<SignedPayload> {
  const byHeader = request.headers.authorization !== undefined;
  const byQuery = request.query.some(([name]) => name === 'X-Amz-Algorithm');
  if (byHeader && byQuery) {
    throw invalidArgument(
      'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified',
      'Authorization',
      request.headers.authorization,
    );
  }
  if (byQuery) {
    await verifyPresignedQuery(request, credentials, now);
    return { kind: 'unsigned' };
  }
  if (byHeader) return verifyAuthorizationHeader(request, credentials, now);
  // The bucket is private, as the cloud one is: an anonymous request reads and writes nothing.
  throw accessDenied();
}

interface CredentialScope {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
}

function parseCredential(value: string): CredentialScope | undefined {
  const parts = value.split('/');
  if (parts.length !== 5 || parts[4] !== 'aws4_request') return undefined;
  const [accessKeyId = '', date = '', region = '', service = ''] = parts;
  if (!accessKeyId || !/^\d{8}$/.test(date) || !region || !service) return undefined;
  return { accessKeyId, date, region, service };
}

/** 20260105T090000Z, as SigV4 writes a time. */
function toAmzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** An ISO 8601 basic date-time, as SigV4 writes it (20260105T090000Z), or undefined. */
function parseAmzDate(value: string | undefined): Date | undefined {
  const match = value ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value) : null;
  if (!match) return undefined;
  const date = new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}Z`);
  // A date that does not exist (20260231T...) would roll over; it does not round-trip.
  return !Number.isNaN(date.getTime()) && toAmzDate(date) === value ? date : undefined;
}

function signerFor(credentials: S3Credentials, region: string): SignatureV4 {
  // S3 signs the path as sent, without SigV4's second round of escaping (uriEscapePath false).
  return new SignatureV4({ credentials, region, service: SERVICE, sha256: Sha256, uriEscapePath: false, applyChecksum: false });
}

type SignableRequest = Parameters<SignatureV4['presign']>[0];

/**
 * S3 canonicalises the path by decoding it and encoding each segment again the RFC 3986 way, so a
 * request whose client left `(` or `!` unescaped still matches a signature made over `%28`.
 */
function canonicalPath(rawPath: string): string {
  return rawPath
    .split('/')
    .map((segment) => escapeUri(decodeURIComponent(segment)))
    .join('/');
}

function queryBag(query: readonly (readonly [string, string])[], leaveOut: readonly string[]): Record<string, string | string[]> {
  const bag: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of query) {
    if (leaveOut.includes(name)) continue;
    const held = bag[name];
    bag[name] = held === undefined ? value : [...(Array.isArray(held) ? held : [held]), value];
  }
  return bag;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** The signed headers' values as they arrived; a signed header that did not arrive is left out, so the signature will not match. */
function signedHeaderBag(headers: IncomingHttpHeaders, signed: readonly string[]): Record<string, string> {
  const bag: Record<string, string> = {};
  for (const name of signed) {
    const value = headerValue(headers, name);
    if (value !== undefined) bag[name] = value;
  }
  return bag;
}

function parseSignedHeaders(value: string): string[] | undefined {
  const names = value.split(';');
  return names.every((name) => /^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) ? names : undefined;
}

/** S3 refuses x-amz-* headers the signature does not cover: they could change what the request does. */
function refuseUnsignedAmzHeaders(headers: IncomingHttpHeaders, signed: readonly string[]): void {
  const unsigned = Object.keys(headers).filter((name) => name.startsWith('x-amz-') && !signed.includes(name));
  if (unsigned.length > 0) {
    throw accessDenied('There were headers present in the request which were not signed', {
      HeadersNotSigned: unsigned.join(', '),
    });
  }
}

function sameSignature(provided: string, expected: string): boolean {
  const a = Buffer.from(provided);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function signableRequest(request: ArrivedRequest, headers: Record<string, string>, leaveOut: readonly string[]): SignableRequest {
  let path: string;
  try {
    path = canonicalPath(request.rawPath);
  } catch {
    throw new S3Error('InvalidURI', "Couldn't parse the specified URI.", 400);
  }
  return {
    method: request.method,
    protocol: 'http:',
    hostname: headers.host ?? '',
    path,
    query: queryBag(request.query, leaveOut),
    headers,
  };
}

const queryError = (message: string) => new S3Error('AuthorizationQueryParametersError', message, 400);

async function verifyPresignedQuery(request: ArrivedRequest, credentials: S3Credentials, now: Date): Promise<void> {
  const single = (name: string) => {
    const values = request.query.filter(([key]) => key === name);
    return values.length === 1 ? values[0]?.[1] : undefined;
  };
  if (single('X-Amz-Algorithm') !== ALGORITHM) throw queryError('X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"');
  const [credential, amzDate, expires, signedHeaders, signature] = PRESIGN_PARAMETERS.slice(1).map(single);
  if (!credential || !amzDate || !expires || !signedHeaders || !signature) {
    throw queryError(
      'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    );
  }
  const scope = parseCredential(credential);
  if (!scope) throw queryError(`Error parsing the X-Amz-Credential parameter; the Credential is mal-formed: ${credential}`);
  if (scope.accessKeyId !== credentials.accessKeyId) throw invalidAccessKeyId(scope.accessKeyId);
  const signingDate = parseAmzDate(amzDate);
  if (!signingDate) throw queryError("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"");
  if (scope.date !== amzDate.slice(0, 8)) {
    throw queryError(
      `Invalid credential date "${scope.date}". This date is not the same as X-Amz-Date: "${amzDate.slice(0, 8)}".`,
    );
  }
  if (scope.service !== SERVICE)
    throw queryError(
      `Error parsing the X-Amz-Credential parameter; incorrect service "${scope.service}". This endpoint belongs to "s3".`,
    );
  if (!/^\d{1,7}$/.test(expires) || Number(expires) > MAX_PRESIGNED_SECONDS) {
    throw queryError(
      'X-Amz-Expires must be less than a week (in seconds); that is, the given X-Amz-Expires must be less than 604800 seconds',
    );
  }
  const expiresAt = new Date(signingDate.getTime() + Number(expires) * 1000);
  if (now > expiresAt) {
    throw accessDenied('Request has expired', {
      'X-Amz-Expires': expires,
      Expires: expiresAt.toISOString().replace(/\.\d{3}/, ''),
      ServerTime: now.toISOString().replace(/\.\d{3}/, ''),
    });
  }
  const signed = parseSignedHeaders(signedHeaders);
  if (!signed?.includes('host')) throw queryError('Query-string authentication requires the host header to be signed.');
  refuseUnsignedAmzHeaders(request.headers, signed);

  const headers = signedHeaderBag(request.headers, signed);
  const presigned = await signerFor(credentials, scope.region).presign(
    { ...signableRequest(request, headers, PRESIGN_PARAMETERS), body: STREAMED_BODY },
    {
      signingDate,
      expiresIn: Number(expires),
      signingRegion: scope.region,
      signingService: SERVICE,
      signableHeaders: new Set(signed),
      // Signed headers stay headers: the signer would otherwise move x-amz-* ones into the query.
      unhoistableHeaders: new Set(signed),
    },
  );
  const expected = presigned.query?.['X-Amz-Signature'];
  if (typeof expected !== 'string' || !sameSignature(signature, expected)) throw signatureDoesNotMatch(scope.accessKeyId);
}

const headerError = (message: string) => new S3Error('AuthorizationHeaderMalformed', message, 400);

function parseAuthorization(value: string): { credential: string; signedHeaders: string; signature: string } {
  const [algorithm, ...rest] = value.trim().split(' ');
  if (algorithm !== ALGORITHM) {
    throw invalidRequest('The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.');
  }
  const components = new Map<string, string>();
  for (const component of rest.join('').split(',')) {
    const separator = component.indexOf('=');
    if (separator > 0) components.set(component.slice(0, separator).trim(), component.slice(separator + 1).trim());
  }
  const credential = components.get('Credential');
  const signedHeaders = components.get('SignedHeaders');
  const signature = components.get('Signature');
  if (!credential || !signedHeaders || !signature) {
    throw headerError(
      'The authorization header is malformed; the authorization header requires three components: Credential, SignedHeaders, and Signature.',
    );
  }
  return { credential, signedHeaders, signature };
}

async function verifyAuthorizationHeader(request: ArrivedRequest, credentials: S3Credentials, now: Date): Promise<SignedPayload> {
  const authorization = parseAuthorization(headerValue(request.headers, 'authorization') ?? '');
  const scope = parseCredential(authorization.credential);
  if (!scope)
    throw headerError(
      `The authorization header is malformed; the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".`,
    );
  if (scope.accessKeyId !== credentials.accessKeyId) throw invalidAccessKeyId(scope.accessKeyId);
  const amzDate = headerValue(request.headers, 'x-amz-date');
  const signingDate = parseAmzDate(amzDate);
  if (!amzDate || !signingDate) throw accessDenied('AWS authentication requires a valid Date or x-amz-date header');
  if (scope.date !== amzDate.slice(0, 8)) {
    throw headerError(`The authorization header is malformed; Invalid credential date. Date is not the same as X-Amz-Date.`);
  }
  if (scope.service !== SERVICE)
    throw headerError(
      `The authorization header is malformed; incorrect service "${scope.service}". This endpoint belongs to "s3".`,
    );
  if (Math.abs(now.getTime() - signingDate.getTime()) > MAX_CLOCK_SKEW_MS) {
    throw new S3Error('RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.', 403, {
      RequestTime: amzDate,
      ServerTime: toAmzDate(now),
      MaxAllowedSkewMilliseconds: MAX_CLOCK_SKEW_MS,
    });
  }
  const contentSha256 = headerValue(request.headers, 'x-amz-content-sha256');
  if (!contentSha256) throw invalidRequest('Missing required header for this request: x-amz-content-sha256');
  const payload = signedPayload(contentSha256);
  const signed = parseSignedHeaders(authorization.signedHeaders);
  if (!signed?.includes('host')) throw headerError('The authorization header is malformed; SignedHeaders must include host.');
  refuseUnsignedAmzHeaders(request.headers, signed);

  const signedRequest = await signerFor(credentials, scope.region).sign(
    signableRequest(request, signedHeaderBag(request.headers, signed), []),
    {
      signingDate,
      signingRegion: scope.region,
      signingService: SERVICE,
      signableHeaders: new Set(signed),
    },
  );
  const expected = /Signature=([0-9a-f]+)$/.exec(signedRequest.headers.authorization ?? '')?.[1];
  if (!expected || !sameSignature(authorization.signature, expected)) throw signatureDoesNotMatch(scope.accessKeyId);
  return payload;
}

function signedPayload(contentSha256: string): SignedPayload {
  if (contentSha256 === UNSIGNED_PAYLOAD) return { kind: 'unsigned' };
  if (/^[0-9a-f]{64}$/i.test(contentSha256)) return { kind: 'sha256', hex: contentSha256.toLowerCase() };
  if (contentSha256 === STREAMING_UNSIGNED_TRAILER) return { kind: 'chunked-trailer' };
  if (contentSha256.startsWith('STREAMING-')) {
    // Chunk-by-chunk signatures: the JavaScript SDK never sends them, and checking each chunk's
    // signature would be SigV4 by hand.
    throw new S3Error('NotImplemented', `The local S3 does not accept x-amz-content-sha256: ${contentSha256}.`, 501);
  }
  throw invalidArgument(
    'x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER, or a valid sha256 value.',
    'x-amz-content-sha256',
    contentSha256,
  );
}

// ---------------------------------------------------------------------------------------------
// The body a header signature vouches for
// ---------------------------------------------------------------------------------------------

type ChecksumAlgorithm = 'crc32' | 'sha1' | 'sha256';
const VERIFIABLE_CHECKSUMS: readonly ChecksumAlgorithm[] = ['crc32', 'sha1', 'sha256'];

interface ChecksumState {
  update(chunk: Buffer): void;
  base64(): string;
}

function checksumState(algorithm: ChecksumAlgorithm): ChecksumState {
  if (algorithm === 'crc32') {
    let value = 0;
    return {
      update: (chunk) => (value = crc32(chunk, value)),
      base64: () => {
        const bytes = Buffer.alloc(4);
        bytes.writeUInt32BE(value >>> 0);
        return bytes.toString('base64');
      },
    };
  }
  const hash = createHash(algorithm);
  return { update: (chunk) => hash.update(chunk), base64: () => hash.digest('base64') };
}

/** What the body must turn out to be, or undefined when nothing about it is to be checked. */
export interface PayloadExpectation {
  sha256Hex: string | undefined;
  /** A checksum header (x-amz-checksum-crc32: ...) S3 checks the body against. */
  checksum: { algorithm: ChecksumAlgorithm; base64: string } | undefined;
  /** aws-chunked framing to take off, its checksum in the trailer x-amz-trailer names. */
  chunked: { decodedLength: number; trailer: ChecksumAlgorithm | undefined } | undefined;
}

/**
 * Checksums S3 verifies are those sent as headers (or in an aws-chunked trailer). The JavaScript
 * SDK also writes the CRC32 of an empty body into every presigned PUT's query string; S3 ignores
 * query-string checksums, and so does this. CRC32C and CRC64NVME have no implementation in Node's
 * standard library and pass unchecked.
 */
export function payloadExpectation(headers: IncomingHttpHeaders, payload: SignedPayload): PayloadExpectation | undefined {
  const headerChecksum = VERIFIABLE_CHECKSUMS.map((algorithm) => ({
    algorithm,
    base64: headerValue(headers, `x-amz-checksum-${algorithm}`),
  })).find((found): found is { algorithm: ChecksumAlgorithm; base64: string } => found.base64 !== undefined);
  let chunked: PayloadExpectation['chunked'];
  if (payload.kind === 'chunked-trailer') {
    const decoded = headerValue(headers, 'x-amz-decoded-content-length');
    if (!decoded || !/^\d+$/.test(decoded)) {
      throw new S3Error('MissingContentLength', 'You must provide the Content-Length HTTP header.', 411);
    }
    const trailer = headerValue(headers, 'x-amz-trailer')?.trim().toLowerCase();
    const algorithm = VERIFIABLE_CHECKSUMS.find((name) => trailer === `x-amz-checksum-${name}`);
    chunked = { decodedLength: Number(decoded), trailer: algorithm };
  }
  const sha256Hex = payload.kind === 'sha256' ? payload.hex : undefined;
  if (!sha256Hex && !headerChecksum && !chunked) return undefined;
  return { sha256Hex, checksum: headerChecksum, chunked };
}

/** For a request with no body: the signed SHA-256 must be that of nothing. */
export function checkEmptyPayload(payload: SignedPayload): void {
  if (payload.kind === 'sha256' && payload.hex !== EMPTY_SHA256) throw sha256Mismatch(payload.hex, EMPTY_SHA256);
}

const sha256Mismatch = (client: string, computed: string) =>
  new S3Error('XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.", 400, {
    ClientComputedContentSHA256: client,
    S3ComputedContentSHA256: computed,
  });

const badDigest = (algorithm: ChecksumAlgorithm) =>
  new S3Error('BadDigest', `The ${algorithm.toUpperCase()} you specified did not match the calculated checksum.`, 400);

const incompleteBody = () =>
  new S3Error('IncompleteBody', 'The request body terminated unexpectedly or is not valid aws-chunked encoding.', 400);

const MAX_CHUNK_LINE = 4_096;

/**
 * Passes a request body through, taking off aws-chunked framing when there is some, and fails
 * the stream with S3's error when the bytes are not those the headers promised. The caller keeps
 * what passed through aside until the stream ends cleanly, so a refused body is never stored.
 */
export class PayloadVerifier extends Transform {
  private readonly sha256 = createHash('sha256');
  private readonly checksum: ChecksumState | undefined;
  private readonly trailerChecksum: ChecksumState | undefined;
  private length = 0;
  // aws-chunked state: reading a chunk's size line, its data, the CRLF after it, or the trailers.
  private state: 'size' | 'data' | 'data-end' | 'trailers' | 'done' = 'size';
  private pending = Buffer.alloc(0);
  private chunkLeft = 0;
  private readonly trailers = new Map<string, string>();

  constructor(private readonly expected: PayloadExpectation) {
    super();
    this.checksum = expected.checksum ? checksumState(expected.checksum.algorithm) : undefined;
    this.trailerChecksum = expected.chunked?.trailer ? checksumState(expected.chunked.trailer) : undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      if (this.expected.chunked) this.decodeChunked(chunk);
      else this.pass(chunk);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      this.verify();
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  private pass(data: Buffer): void {
    if (data.length === 0) return;
    this.length += data.length;
    if (this.expected.sha256Hex) this.sha256.update(data);
    this.checksum?.update(data);
    this.trailerChecksum?.update(data);
    this.push(data);
  }

  private decodeChunked(chunk: Buffer): void {
    let data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (data.length > 0) {
      if (this.state === 'data') {
        const take = Math.min(this.chunkLeft, data.length);
        this.pass(data.subarray(0, take));
        this.chunkLeft -= take;
        data = data.subarray(take);
        if (this.chunkLeft === 0) this.state = 'data-end';
        continue;
      }
      if (this.state === 'done') throw incompleteBody();
      const lineEnd = data.indexOf('\r\n');
      if (lineEnd < 0) {
        if (data.length > MAX_CHUNK_LINE) throw incompleteBody();
        this.pending = Buffer.from(data);
        return;
      }
      const line = data.subarray(0, lineEnd).toString('latin1');
      data = data.subarray(lineEnd + 2);
      if (this.state === 'data-end') {
        if (line !== '') throw incompleteBody();
        this.state = 'size';
      } else if (this.state === 'size') {
        const size = line.split(';')[0]?.trim() ?? '';
        if (!/^[0-9a-fA-F]{1,12}$/.test(size)) throw incompleteBody();
        this.chunkLeft = parseInt(size, 16);
        this.state = this.chunkLeft === 0 ? 'trailers' : 'data';
      } else if (line === '') {
        this.state = 'done';
      } else {
        const colon = line.indexOf(':');
        if (colon <= 0) throw incompleteBody();
        this.trailers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
    }
  }

  private verify(): void {
    const { chunked, sha256Hex, checksum } = this.expected;
    if (chunked) {
      // A body that stops right after the trailers, without the final empty line, is accepted as S3 does.
      if (this.state !== 'done' && this.state !== 'trailers') throw incompleteBody();
      if (this.length !== chunked.decodedLength) throw incompleteBody();
      if (chunked.trailer && this.trailerChecksum) {
        const sent = this.trailers.get(`x-amz-checksum-${chunked.trailer}`);
        if (sent !== this.trailerChecksum.base64()) throw badDigest(chunked.trailer);
      }
    }
    if (sha256Hex) {
      const computed = this.sha256.digest('hex');
      if (computed !== sha256Hex) throw sha256Mismatch(sha256Hex, computed);
    }
    if (checksum && this.checksum && this.checksum.base64() !== checksum.base64) throw badDigest(checksum.algorithm);
  }
}

// ---------------------------------------------------------------------------------------------
// Presigned POST: the policy and its signature
// ---------------------------------------------------------------------------------------------

/** The size range a policy allows the file, in bytes. */
export interface ContentLengthRange {
  min: number;
  max: number;
}

const policyError = (message: string) => new S3Error('InvalidPolicyDocument', `Invalid Policy: ${message}`, 400);
const policyRefusal = (message: string) => accessDenied(`Invalid according to Policy: ${message}`);

/** Form fields no policy condition needs to name. */
function exemptFromPolicy(name: string): boolean {
  return name === 'policy' || name === 'x-amz-signature' || name === 'file' || name.startsWith('x-ignore-');
}

/**
 * Checks a browser POST's form fields (names lower-cased, as S3 compares them) against its
 * policy: the signature over the base64 policy, its expiration, and every condition, each form
 * field named by one. Returns the size range the file must then fall in.
 */
export async function verifyPostPolicy(
  fields: ReadonlyMap<string, string>,
  bucket: string,
  credentials: S3Credentials,
  now = new Date(),
): Promise<ContentLengthRange> {
  const policy = fields.get('policy');
  if (fields.has('awsaccesskeyid') || fields.has('signature')) {
    throw invalidRequest('The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.');
  }
  // Without a policy the POST is anonymous, and the bucket is private.
  if (policy === undefined) throw accessDenied();
  if (fields.get('x-amz-algorithm') !== ALGORITHM) {
    throw invalidArgument('POST form x-amz-algorithm must be AWS4-HMAC-SHA256', 'x-amz-algorithm', fields.get('x-amz-algorithm'));
  }
  const credential = fields.get('x-amz-credential') ?? '';
  const scope = parseCredential(credential);
  if (!scope) throw invalidArgument('POST form x-amz-credential is malformed', 'x-amz-credential', credential);
  if (scope.accessKeyId !== credentials.accessKeyId) throw invalidAccessKeyId(scope.accessKeyId);
  if (scope.service !== SERVICE)
    throw invalidArgument('POST form x-amz-credential names another service', 'x-amz-credential', credential);
  const signature = fields.get('x-amz-signature');
  if (!signature) throw invalidArgument('Bucket POST must contain a field named x-amz-signature', 'x-amz-signature', '');
  if (!parseAmzDate(fields.get('x-amz-date'))) {
    throw invalidArgument('POST form x-amz-date must be in the ISO8601 Long Format', 'x-amz-date', fields.get('x-amz-date'));
  }

  // A POST is signed by the signing key of its credential's scope over the base64 policy itself
  // (no canonical request): SignatureV4's string signing is exactly that HMAC chain and HMAC.
  const scopeDate = new Date(`${scope.date.slice(0, 4)}-${scope.date.slice(4, 6)}-${scope.date.slice(6, 8)}T00:00:00Z`);
  const expected = await signerFor(credentials, scope.region).sign(policy, {
    signingDate: scopeDate,
    signingRegion: scope.region,
    signingService: SERVICE,
  });
  if (!sameSignature(signature, expected)) throw signatureDoesNotMatch(scope.accessKeyId);

  const document = parsePolicy(policy);
  const expiration = new Date(document.expiration);
  if (Number.isNaN(expiration.getTime())) throw policyError(`Invalid 'expiration' value: '${document.expiration}'`);
  if (now > expiration) throw policyRefusal('Policy expired.');

  const covered = new Set<string>();
  let range: ContentLengthRange = { min: 0, max: Number.MAX_SAFE_INTEGER };
  const valueOf = (name: string) => (name === 'bucket' ? bucket : (fields.get(name) ?? ''));
  for (const condition of document.conditions) {
    const check = parseCondition(condition);
    if (check.kind === 'range') {
      range = { min: Math.max(range.min, check.min), max: Math.min(range.max, check.max) };
      continue;
    }
    covered.add(check.field);
    if (!conditionHolds(check, valueOf(check.field))) {
      throw policyRefusal(`Policy Condition failed: ${JSON.stringify(condition)}`);
    }
  }
  const extra = [...fields.keys()].filter((name) => !exemptFromPolicy(name) && !covered.has(name));
  if (extra.length > 0) throw policyRefusal(`Extra input fields: ${extra.join(', ')}`);
  return range;
}

interface PolicyDocument {
  expiration: string;
  conditions: unknown[];
}

function parsePolicy(policy: string): PolicyDocument {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(policy)) throw policyError('Invalid JSON.');
  let document: unknown;
  try {
    document = JSON.parse(Buffer.from(policy, 'base64').toString('utf8'));
  } catch {
    throw policyError('Invalid JSON.');
  }
  if (typeof document !== 'object' || document === null) throw policyError('Invalid JSON.');
  const { expiration, conditions } = document as { expiration?: unknown; conditions?: unknown };
  if (typeof expiration !== 'string') throw policyError('Policy missing expiration.');
  if (!Array.isArray(conditions)) throw policyError('Policy missing conditions.');
  return { expiration, conditions };
}

type Condition = { kind: 'eq' | 'starts-with'; field: string; value: string } | { kind: 'range'; min: number; max: number };

function parseCondition(condition: unknown): Condition {
  const invalid = () => policyError(`Invalid Condition: ${JSON.stringify(condition)}`);
  if (Array.isArray(condition)) {
    const [operator, first, second] = condition as unknown[];
    const op = typeof operator === 'string' ? operator.toLowerCase() : '';
    if (op === 'content-length-range' && condition.length === 3) {
      const min = Number(first);
      const max = Number(second);
      if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min < 0 || max < min) throw invalid();
      return { kind: 'range', min, max };
    }
    if (
      (op === 'eq' || op === 'starts-with') &&
      condition.length === 3 &&
      typeof first === 'string' &&
      typeof second === 'string'
    ) {
      if (!first.startsWith('$')) throw invalid();
      return { kind: op, field: first.slice(1).toLowerCase(), value: second };
    }
    throw invalid();
  }
  if (typeof condition === 'object' && condition !== null) {
    const entries = Object.entries(condition);
    const [entry] = entries;
    if (entries.length !== 1 || !entry || typeof entry[1] !== 'string') throw invalid();
    return { kind: 'eq', field: entry[0].toLowerCase(), value: entry[1] };
  }
  throw invalid();
}

function conditionHolds(condition: { kind: 'eq' | 'starts-with'; field: string; value: string }, actual: string): boolean {
  if (condition.kind === 'eq') return actual === condition.value;
  // A Content-Type may list several types; each must start with the prefix.
  if (condition.field === 'content-type') return actual.split(',').every((type) => type.trim().startsWith(condition.value));
  return actual.startsWith(condition.value);
}

export function checkContentLength(size: number, range: ContentLengthRange): void {
  if (size > range.max) {
    throw new S3Error('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', 400, {
      ProposedSize: size,
      MaxSizeAllowed: range.max,
    });
  }
  if (size < range.min) {
    throw new S3Error('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size', 400, {
      ProposedSize: size,
      MinSizeAllowed: range.min,
    });
  }
}
