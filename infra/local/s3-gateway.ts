import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, unlink } from 'node:fs/promises';
import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request as httpRequest,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  checkCopyConditions,
  checkCopySize,
  checkNotCopyOntoItself,
  copiedObjectHeaders,
  copyObjectResultXml,
  directiveOf,
  KeyLocks,
  parseCopySource,
} from './s3-copy';
import { errorXml, invalidArgument, malformedXml, newRequestId, S3Error, XML_DECLARATION, xmlEscape } from './s3-errors';
import { completeMultipartUploadXml, listPartsXml, MultipartStore, partNumberOf, partsPageOf } from './s3-multipart-store';
import {
  type ArrivedRequest,
  checkContentLength,
  checkEmptyPayload,
  type ContentLengthRange,
  PayloadVerifier,
  payloadExpectation,
  PRESIGN_PARAMETERS,
  type S3Credentials,
  type PayloadExpectation,
  type SignedPayload,
  verifyPostPolicy,
  verifyRequestSignature,
} from './s3-signatures';

/**
 * A thin HTTP layer in front of s3rver that answers as S3 does where s3rver does not: it checks
 * every request's SigV4 signature and a browser POST's policy, lists and aborts multipart uploads,
 * checks a multipart completion and gives the object S3's ETag, copies an object on its copy
 * source's conditions (s3-copy.ts), and answers CORS from the bucket's rules with the caller's
 * origin. Everything else goes to s3rver as it came, and its answers stream back; s3rver's
 * directory stays the one store. Request bodies are received whole before s3rver sees them, in a
 * file on disk (never in memory), for the reason `bodyFor` gives. The gateway's writes to an
 * object and its copies from one take turns per key (`KeyLocks`), so a copy's condition holds
 * for the bytes it copies, as S3's does.
 */

/** The bucket's CORS rule, the cloud bucket's: the app's origins may read and upload, and read ETags. */
export const CORS_RULE = {
  allowedMethods: ['GET', 'PUT', 'POST', 'HEAD'],
  exposeHeaders: ['ETag'],
  maxAgeSeconds: 600,
} as const;

export interface S3GatewayOptions {
  /** Where s3rver listens (on loopback). */
  upstream: { host: string; port: number };
  /** s3rver's directory: multipart uploads are read and changed there. */
  directory: string;
  allowedOrigins: readonly string[];
  credentials: S3Credentials;
  /** Told of failures that are the gateway's own, not the caller's. */
  log?: (line: string) => void;
}

export interface S3Gateway {
  endpoint: string;
  close(): Promise<void>;
}

/** S3 refuses a POST whose fields before the file are larger than this. */
const MAX_POST_FIELDS_BYTES = 20 * 1_024;
/** A CompleteMultipartUpload body for 10,000 parts is about 1 MB. */
const MAX_XML_BODY_BYTES = 2 * 1_048_576;
const RESPONSE_OVERRIDES: Readonly<Record<string, string>> = {
  'response-content-type': 'content-type',
  'response-content-language': 'content-language',
  'response-expires': 'expires',
  'response-cache-control': 'cache-control',
  'response-content-disposition': 'content-disposition',
  'response-content-encoding': 'content-encoding',
};
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
/** Form fields S3 keeps as the object's headers. */
const POST_OBJECT_HEADERS = [
  'content-type',
  'cache-control',
  'content-disposition',
  'content-encoding',
  'expires',
  'x-amz-storage-class',
];

/** The request target: its raw path and query as sent, and what they name. */
interface Target {
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

function parseTarget(url: string | undefined): Target {
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
function refuseUnsafeKey(key: string): void {
  if (key.split('/').some((segment) => segment === '.' || segment === '..' || segment.includes('._S3rver_'))) {
    throw invalidArgument('The local S3 does not store keys with "." or ".." segments or s3rver\'s own names.', 'key', key);
  }
}

const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

function upstreamPath(target: Target): string {
  const kept = target.rawQuery.filter(({ name }) => !NOT_FORWARDED_QUERY.has(name) && !name.startsWith('response-'));
  return kept.length === 0 ? target.rawPath : `${target.rawPath}?${kept.map(({ raw }) => raw).join('&')}`;
}

function forwardedHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !NOT_FORWARDED.has(name) && !name.startsWith('proxy-')) kept[name] = value;
  }
  return kept;
}

const hasBody = (request: IncomingMessage) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

function corsHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': CORS_RULE.allowedMethods.join(', '),
    'Access-Control-Expose-Headers': CORS_RULE.exposeHeaders.join(', '),
    'Access-Control-Max-Age': String(CORS_RULE.maxAgeSeconds),
    'Access-Control-Allow-Credentials': 'true',
    Vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
  };
}

/** A file of the gateway's own, for a body that must be checked whole before s3rver may store it. */
interface Spooled {
  path: string;
  /** Bytes in the file. */
  size: number;
  /** Bytes the stream had, kept or not. */
  received: number;
}

export async function startS3Gateway(options: S3GatewayOptions): Promise<S3Gateway> {
  const log = options.log ?? ((line: string) => console.error(line));
  const store = new MultipartStore(options.directory);
  const locks = new KeyLocks();
  const objectName = (bucket: string, key: string) => `${bucket}/${key}`;
  // A fresh loopback connection per request: a kept-alive one that s3rver closes just as it is
  // reused would fail a request that did nothing wrong.
  const agent = new Agent({ keepAlive: false });
  // Beside s3rver's directory (inside it, every folder is listed as a bucket), on the same disk:
  // the system's temporary directory may be memory. What a crash left there is of no use.
  const spoolDirectory = `${options.directory.replace(/[\\/]+$/, '')}.incoming`;
  await rm(spoolDirectory, { recursive: true, force: true });
  await mkdir(spoolDirectory, { recursive: true });
  const spoolPath = () => join(spoolDirectory, randomBytes(12).toString('hex'));
  const allowedOrigin = (origin: string | undefined, method: string | undefined) =>
    origin !== undefined &&
    options.allowedOrigins.includes(origin) &&
    (CORS_RULE.allowedMethods as readonly string[]).includes(method ?? '');

  function sendUpstream(
    method: string,
    path: string,
    headers: OutgoingHttpHeaders,
    body: Readable | Buffer | undefined,
  ): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest({ ...options.upstream, method, path, headers, agent }, resolve);
      outgoing.on('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'ECONNREFUSED'
            ? new S3Error('ServiceUnavailable', 'The local S3 store (s3rver) cannot be reached.', 503)
            : error,
        ),
      );
      if (body === undefined) outgoing.end();
      else if (Buffer.isBuffer(body)) outgoing.end(body);
      // A failed body stream destroys the outgoing request, whose error rejects above.
      else pipeline(body, outgoing).catch(() => undefined);
    });
  }

  /** s3rver's answer to the caller, with S3's CORS headers (set before) rather than s3rver's. */
  async function relay(upstream: IncomingMessage, response: ServerResponse, extra: Record<string, string> = {}) {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(upstream.headers)) {
      if (value === undefined || name.startsWith('access-control-') || name === 'vary') continue;
      if (name === 'connection' || name === 'keep-alive' || name === 'transfer-encoding') continue;
      headers[name] = value;
    }
    response.writeHead(upstream.statusCode ?? 502, { ...headers, ...extra });
    await pipeline(upstream, response);
  }

  /** A small body, whole, checked against what its signature promised when it promised something. */
  async function readAll(stream: Readable, limit: number, expectation?: PayloadExpectation): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    const collector = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > limit) return callback(new S3Error('MaxMessageLengthExceeded', 'Your request was too big.', 400));
        chunks.push(chunk);
        callback();
      },
    });
    if (expectation) await pipeline(stream, new PayloadVerifier(expectation), collector);
    else await pipeline(stream, collector);
    return Buffer.concat(chunks);
  }

  /**
   * Writes a stream to a spool file, checked on the way when an expectation is given; past
   * `keepAtMost` bytes it only counts them. A stream that fails leaves no file.
   */
  async function spool(
    stream: Readable,
    how: { keepAtMost?: number; expectation?: PayloadExpectation | undefined } = {},
  ): Promise<Spooled> {
    const keepAtMost = how.keepAtMost ?? Number.POSITIVE_INFINITY;
    const path = spoolPath();
    let size = 0;
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback: TransformCallback) {
        received += chunk.length;
        const kept = chunk.subarray(0, Math.max(0, keepAtMost - size));
        size += kept.length;
        callback(null, kept);
      },
    });
    try {
      if (how.expectation) await pipeline(stream, new PayloadVerifier(how.expectation), counter, createWriteStream(path));
      else await pipeline(stream, counter, createWriteStream(path));
    } catch (error) {
      await unlink(path).catch(() => undefined);
      throw error;
    }
    return { path, size, received };
  }

  /**
   * The request's body as s3rver is to receive it: received whole first, in a spool file (never in
   * memory), and checked there when the signature vouches for the bytes (a SHA-256, a checksum
   * header, aws-chunked framing). s3rver truncates an object the moment a PUT to it begins and
   * keeps whatever arrived if the caller goes away; S3 stores nothing of an interrupted or refused
   * upload and keeps the object that was there.
   */
  async function bodyFor(
    request: IncomingMessage,
    payload: SignedPayload,
  ): Promise<{ body: Readable | undefined; headers: OutgoingHttpHeaders; spooled?: Spooled }> {
    const headers = forwardedHeaders(request.headers);
    if (!hasBody(request)) {
      checkEmptyPayload(payload);
      return { body: undefined, headers };
    }
    const expectation = payloadExpectation(request.headers, payload);
    if (request.method === 'PUT' && request.headers['content-length'] === undefined && !expectation?.chunked) {
      throw new S3Error('MissingContentLength', 'You must provide the Content-Length HTTP header.', 411);
    }
    const spooled = await spool(request, { expectation });
    if (expectation?.chunked) {
      const encodings = String(request.headers['content-encoding'] ?? '')
        .split(',')
        .map((encoding) => encoding.trim())
        .filter((encoding) => encoding !== '' && encoding !== 'aws-chunked');
      delete headers['content-encoding'];
      if (encodings.length > 0) headers['content-encoding'] = encodings.join(', ');
      delete headers['x-amz-decoded-content-length'];
      delete headers['x-amz-trailer'];
    }
    delete headers['transfer-encoding'];
    headers['content-length'] = String(spooled.size);
    return { body: createReadStream(spooled.path), headers, spooled };
  }

  async function forward(request: IncomingMessage, response: ServerResponse, target: Target, payload: SignedPayload) {
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
    const { body, headers, spooled } = await bodyFor(request, payload);
    const method = request.method ?? 'GET';
    const send = async () => {
      const upstream = await sendUpstream(method, upstreamPath(target), headers, body);
      // S3 applies the response-* overrides of a signed GET to a successful answer only.
      const applies = (method === 'GET' || method === 'HEAD') && [200, 206].includes(upstream.statusCode ?? 0);
      await relay(upstream, response, applies ? overrides : {});
    };
    try {
      // A change to an object waits for a copy from it to finish (and the other way round).
      if (method === 'GET' || method === 'HEAD' || !target.key) await send();
      else await locks.run([objectName(target.bucket, target.key)], send);
    } finally {
      if (spooled) await unlink(spooled.path).catch(() => undefined);
    }
  }

  async function listParts(response: ServerResponse, target: Target) {
    const uploadId = target.query.get('uploadId') ?? '';
    const page = partsPageOf(target.query);
    const parts = await store.listParts(target.bucket, target.key, uploadId, page);
    sendXml(response, 200, listPartsXml({ bucket: target.bucket, key: target.key, uploadId, ...page }, parts));
  }

  async function abortUpload(response: ServerResponse, target: Target) {
    await store.abort(target.bucket, target.key, target.query.get('uploadId') ?? '');
    response.writeHead(204).end();
  }

  async function completeUpload(request: IncomingMessage, response: ServerResponse, target: Target, payload: SignedPayload) {
    const uploadId = target.query.get('uploadId') ?? '';
    const expectation = payloadExpectation(request.headers, payload);
    const xml = await readAll(request, MAX_XML_BODY_BYTES, expectation);
    const text = xml.toString('utf8');
    if (XMLValidator.validate(text) !== true) throw malformedXml();
    const parsed: unknown = new XMLParser({ isArray: (name) => name === 'Part', parseTagValue: false }).parse(text);
    const parts = (parsed as { CompleteMultipartUpload?: { Part?: unknown } }).CompleteMultipartUpload?.Part;
    if (!Array.isArray(parts) || parts.length === 0) throw malformedXml();
    const requested = parts.map((part: unknown) => {
      const { PartNumber, ETag } = (part ?? {}) as { PartNumber?: unknown; ETag?: unknown };
      if (typeof ETag !== 'string' || typeof PartNumber !== 'string') throw malformedXml();
      return { partNumber: partNumberOf(PartNumber), etag: ETag };
    });
    const etag = await store.completionEtag(target.bucket, target.key, uploadId, requested);

    const headers = forwardedHeaders(request.headers);
    delete headers['transfer-encoding'];
    delete headers['content-encoding'];
    headers['content-length'] = String(xml.length);
    const completed = await locks.run([objectName(target.bucket, target.key)], async () => {
      const upstream = await sendUpstream('POST', upstreamPath(target), headers, xml);
      if (upstream.statusCode !== 200) return upstream;
      upstream.resume();
      // s3rver gave the object the MD5 of its bytes; S3's multipart ETag is the MD5 of the parts' MD5s.
      await store.setObjectEtag(target.bucket, target.key, etag);
      return undefined;
    });
    if (completed) return relay(completed, response);
    const location = `http://${request.headers.host ?? '127.0.0.1'}/${target.bucket}/${encodeKey(target.key)}`;
    sendXml(response, 200, completeMultipartUploadXml({ location, bucket: target.bucket, key: target.key, etag }));
  }

  async function uploadPart(request: IncomingMessage, response: ServerResponse, target: Target, payload: SignedPayload) {
    partNumberOf(target.query.get('partNumber'));
    // s3rver would otherwise make a directory for any upload id it is given.
    await store.requireUpload(target.bucket, target.key, target.query.get('uploadId') ?? '');
    await forward(request, response, target, payload);
  }

  async function presignedPost(request: IncomingMessage, response: ServerResponse, target: Target) {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: request.headers, limits: { fieldSize: MAX_POST_FIELDS_BYTES, parts: 1_000 } });
    } catch {
      throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412, {
        Condition: 'Bucket POST must be of the enclosure-type multipart/form-data',
      });
    }
    const fields = new Map<string, string>();
    let fieldBytes = 0;
    let tooLarge = false;
    let files = 0;
    let received: Promise<{ key: string; range: ContentLengthRange; spooled: Spooled }> | undefined;

    // The file is checked against the policy as soon as it starts, and kept aside: s3rver gets it
    // only once the whole form has been read well-formed and the size is known to be in range.
    const receiveFile = async (file: Readable, fileName: string) => {
      let range: ContentLengthRange;
      let key: string;
      try {
        if (tooLarge) {
          throw new S3Error(
            'MaxPostPreDataLengthExceeded',
            'Your POST request fields preceeding the upload file was too large.',
            400,
            {
              MaxPostPreDataLength: MAX_POST_FIELDS_BYTES,
            },
          );
        }
        key = postKey(fields, fileName);
        range = await verifyPostPolicy(fields, target.bucket, options.credentials);
      } catch (error) {
        file.resume();
        throw error;
      }
      return { key, range, spooled: await spool(file, { keepAtMost: range.max }) };
    };
    const onFile = (file: Readable, fileName: string) => {
      files += 1;
      received = receiveFile(file, fileName);
      // Awaited once the whole form has been read.
      received.catch(() => undefined);
    };

    parser.on('field', (name, value, info) => {
      const lower = name.toLowerCase();
      if (files > 0) return; // S3 ignores whatever follows the file.
      // A file sent as a plain field (no file name): its text is the object.
      if (lower === 'file') return onFile(Readable.from([Buffer.from(value)]), '');
      fieldBytes += name.length + value.length;
      if (fieldBytes > MAX_POST_FIELDS_BYTES || info.valueTruncated) tooLarge = true;
      if (!fields.has(lower)) fields.set(lower, value);
    });
    parser.on('file', (name, file, info) => {
      if (files > 0 || name.toLowerCase() !== 'file') {
        if (name.toLowerCase() === 'file') files += 1;
        file.resume();
        return;
      }
      onFile(file, info.filename ?? '');
    });

    const discard = () => received?.then(({ spooled }) => unlink(spooled.path)).catch(() => undefined);
    try {
      await pipeline(request, parser);
    } catch (error) {
      await discard();
      if (error instanceof S3Error) throw error;
      throw new S3Error('MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.', 400);
    }
    if (!received || files !== 1) {
      await discard();
      throw invalidArgument('POST requires exactly one file upload per request.', 'file', String(files));
    }
    const { key, range, spooled } = await received;
    let etag: string;
    try {
      checkContentLength(spooled.received, range);
      etag = await storePostedFile(target.bucket, key, fields, spooled, request.headers.host);
    } finally {
      await unlink(spooled.path).catch(() => undefined);
    }
    const location = `http://${request.headers.host ?? '127.0.0.1'}/${target.bucket}/${encodeKey(key)}`;
    const headers = { ETag: `"${etag}"`, Location: location };
    const redirect = fields.get('success_action_redirect') ?? fields.get('redirect');
    const redirectUrl = redirect && URL.canParse(redirect) ? new URL(redirect) : undefined;
    if (redirectUrl) {
      redirectUrl.searchParams.set('bucket', target.bucket);
      redirectUrl.searchParams.set('key', key);
      redirectUrl.searchParams.set('etag', `"${etag}"`);
      response.writeHead(303, { ...headers, Location: redirectUrl.href }).end();
      return;
    }
    const status = fields.get('success_action_status');
    if (status === '201') {
      sendXml(
        response,
        201,
        `${XML_DECLARATION}<PostResponse><Location>${xmlEscape(location)}</Location><Bucket>${xmlEscape(target.bucket)}</Bucket>` +
          `<Key>${xmlEscape(key)}</Key><ETag>${xmlEscape(`"${etag}"`)}</ETag></PostResponse>`,
        headers,
      );
      return;
    }
    response.writeHead(status === '200' ? 200 : 204, headers).end();
  }

  /** The posted file, checked, handed to s3rver as a PUT with the form's headers; its ETag. */
  async function storePostedFile(
    bucket: string,
    key: string,
    fields: ReadonlyMap<string, string>,
    spooled: Spooled,
    host: string | undefined,
  ): Promise<string> {
    const headers: OutgoingHttpHeaders = { 'content-length': String(spooled.size), host: host ?? '127.0.0.1' };
    for (const [name, value] of fields) {
      if (POST_OBJECT_HEADERS.includes(name) || name.startsWith('x-amz-meta-')) headers[name] = value;
    }
    return locks.run([objectName(bucket, key)], () => putUpstream(bucket, key, headers, spooled.path));
  }

  /** A spooled body stored by s3rver under the key; its ETag, unquoted. */
  async function putUpstream(bucket: string, key: string, headers: OutgoingHttpHeaders, path: string): Promise<string> {
    const upstream = await sendUpstream('PUT', `/${bucket}/${encodeKey(key)}`, headers, createReadStream(path));
    const answer = await readAll(upstream, MAX_XML_BODY_BYTES);
    const etag = upstream.headers.etag;
    if (upstream.statusCode !== 200 || !etag) {
      throw new S3Error('InternalError', `s3rver did not store the object: ${answer.toString('utf8').slice(0, 200)}`, 500);
    }
    return etag.replace(/"/g, '');
  }

  /**
   * CopyObject: the source read from s3rver and checked (its conditions, its size, that the copy
   * changes something), its bytes spooled and stored under the target key with the source's or
   * the request's headers, all while both keys are held, so no write to the source comes between
   * the check and the copy. The copy's ETag is the MD5 of its bytes, as S3 gives a copy made in
   * one call. Tags are not kept locally at all (nor by a POST or a PUT), so the tagging directive
   * is only checked.
   */
  async function copyObject(request: IncomingMessage, response: ServerResponse, target: Target, payload: SignedPayload) {
    if (hasBody(request)) await spool(request, { keepAtMost: 0 }).then(({ path }) => unlink(path));
    else checkEmptyPayload(payload);
    const source = parseCopySource(String(request.headers['x-amz-copy-source']));
    refuseUnsafeKey(source.key);
    const metadata = directiveOf(request.headers, 'metadata');
    directiveOf(request.headers, 'tagging');
    checkNotCopyOntoItself(source, target, metadata);
    const names = [objectName(source.bucket, source.key), objectName(target.bucket, target.key)];
    const { etag, lastModified } = await locks.run(names, async () => {
      const upstream = await sendUpstream(
        'GET',
        `/${source.bucket}/${encodeKey(source.key)}`,
        { host: request.headers.host ?? '127.0.0.1' },
        undefined,
      );
      if (upstream.statusCode !== 200) {
        const answer = (await readAll(upstream, MAX_XML_BODY_BYTES)).toString('utf8');
        const code = /<Code>([^<]*)<\/Code>/.exec(answer)?.[1];
        if (code === 'NoSuchBucket') {
          throw new S3Error('NoSuchBucket', 'The specified bucket does not exist', 404, { BucketName: source.bucket });
        }
        if (upstream.statusCode === 404)
          throw new S3Error('NoSuchKey', 'The specified key does not exist.', 404, { Key: source.key });
        throw new S3Error('InternalError', `s3rver did not read the copy source: ${answer.slice(0, 200)}`, 500);
      }
      try {
        checkCopySize(Number(upstream.headers['content-length'] ?? 0));
        checkCopyConditions(request.headers, {
          etag: String(upstream.headers.etag ?? ''),
          lastModified: new Date(String(upstream.headers['last-modified'] ?? 0)),
        });
      } catch (error) {
        upstream.destroy();
        throw error;
      }
      const spooled = await spool(upstream);
      try {
        const headers: OutgoingHttpHeaders = {
          ...copiedObjectHeaders(metadata, upstream.headers, request.headers),
          'content-length': String(spooled.size),
          host: request.headers.host ?? '127.0.0.1',
        };
        return { etag: await putUpstream(target.bucket, target.key, headers, spooled.path), lastModified: new Date() };
      } finally {
        await unlink(spooled.path).catch(() => undefined);
      }
    });
    sendXml(response, 200, copyObjectResultXml(etag, lastModified));
  }

  function preflight(request: IncomingMessage, response: ServerResponse, target: Target) {
    const origin = request.headers.origin;
    const method = request.headers['access-control-request-method'];
    if (!origin) throw new S3Error('BadRequest', 'Insufficient information. Origin request header needed.', 400);
    if (!method) throw new S3Error('BadRequest', 'Invalid Access-Control-Request-Method: null', 400);
    if (!allowedOrigin(origin, method)) {
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

  async function route(request: IncomingMessage, response: ServerResponse, target: Target) {
    const method = request.method ?? '';
    if (method === 'OPTIONS') return preflight(request, response, target);
    if (method === 'POST' && target.bucket && !target.key && target.rawQuery.length === 0) {
      return presignedPost(request, response, target);
    }
    const arrived: ArrivedRequest = {
      method,
      rawPath: target.rawPath,
      query: target.rawQuery.map(({ name, value }) => [name, value] as const),
      headers: request.headers,
    };
    const payload = await verifyRequestSignature(arrived, options.credentials);
    const copies = request.headers['x-amz-copy-source'] !== undefined;
    // With an upload id it is UploadPartCopy, which s3rver refuses as not implemented (docs/architecture.md).
    if (method === 'PUT' && target.key && copies && !target.query.has('uploadId')) {
      return copyObject(request, response, target, payload);
    }
    if (target.key && target.query.has('uploadId')) {
      if (method === 'GET') return listParts(response, target);
      if (method === 'DELETE') return abortUpload(response, target);
      if (method === 'POST') return completeUpload(request, response, target, payload);
      if (method === 'PUT') return uploadPart(request, response, target, payload);
    }
    return forward(request, response, target, payload);
  }

  function sendXml(response: ServerResponse, status: number, xml: string, headers: Record<string, string> = {}) {
    const body = Buffer.from(xml);
    response.writeHead(status, { ...headers, 'Content-Type': 'application/xml', 'Content-Length': String(body.length) });
    response.end(response.req.method === 'HEAD' ? undefined : body);
  }

  function sendError(response: ServerResponse, error: unknown, requestId: string) {
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

  const server = createServer({ requestTimeout: 0 }, (request, response) => {
    const requestId = newRequestId();
    response.setHeader('x-amz-request-id', requestId);
    request.on('error', () => undefined);
    response.on('error', () => undefined);
    const origin = request.headers.origin;
    if (request.method !== 'OPTIONS' && allowedOrigin(origin, request.method) && origin) {
      for (const [name, value] of Object.entries(corsHeaders(origin))) response.setHeader(name, value);
    }
    Promise.resolve()
      .then(() => route(request, response, parseTarget(request.url)))
      .catch((error: unknown) => sendError(response, error, requestId));
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      agent.destroy();
      await rm(spoolDirectory, { recursive: true, force: true });
    },
  };
}

/** The POST's key, `${filename}` replaced by the file's name as S3 does; InvalidArgument when there is none. */
function postKey(fields: ReadonlyMap<string, string>, fileName: string): string {
  const key = fields.get('key');
  if (key === undefined) {
    throw invalidArgument(
      "Bucket POST must contain a field named 'key'.  If it is specified, please check the order of the fields.",
      'key',
      '',
    );
  }
  const named = key.replace('${filename}', fileName);
  if (named === '') throw invalidArgument('User key must have a length greater than 0.', 'key', '');
  refuseUnsafeKey(named);
  return named;
}
