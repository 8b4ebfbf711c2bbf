import { createReadStream } from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  checkCopyConditions,
  checkCopySize,
  checkNotCopyOntoItself,
  copiedObjectHeaders,
  copyObjectResultXml,
  directiveOf,
  parseCopySource,
} from './copy';
import { malformedXml, S3Error } from './errors';
import { completeMultipartUploadXml, listPartsXml, partNumberOf, partsPageOf } from './multipart-store';
import { presignedPost } from './post';
import {
  encodeKey,
  forwardedHeaders,
  hasBody,
  preflight,
  refuseUnsafeKey,
  relay,
  responseOverrides,
  sendXml,
  type Target,
  upstreamPath,
} from './protocol';
import {
  type ArrivedRequest,
  checkEmptyPayload,
  payloadExpectation,
  type S3Credentials,
  type SignedPayload,
  verifyRequestSignature,
} from './signatures';
import { parseRange, resolveRange } from './range';
import { MAX_XML_BODY_BYTES, type ObjectStore, readAll, type Spooled } from './store';

/** What the operations answer from: the objects, the keys requests are signed with, the origins of the bucket's CORS rule. */
export interface S3Api {
  store: ObjectStore;
  credentials: S3Credentials;
  allowedOrigins: readonly string[];
}

/**
 * The request's body as s3rver is to receive it: received whole first, in a spool file (never in
 * memory), and checked there when the signature vouches for the bytes (a SHA-256, a checksum
 * header, aws-chunked framing). s3rver truncates an object the moment a PUT to it begins and
 * keeps whatever arrived if the caller goes away; S3 stores nothing of an interrupted or refused
 * upload and keeps the object that was there.
 */
async function bodyFor(
  store: ObjectStore,
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
  const spooled = await store.spool(request, { expectation });
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

/** What s3rver answers as S3 does: the request goes to it as it came (its body checked first), and its answer streams back. */
async function forward(api: S3Api, request: IncomingMessage, response: ServerResponse, target: Target, payload: SignedPayload) {
  const overrides = responseOverrides(target);
  const { body, headers, spooled } = await bodyFor(api.store, request, payload);
  const method = request.method ?? 'GET';
  const send = async () => {
    if (method === 'GET' && target.key && headers.range !== undefined)
      return sendRange(api, response, target, headers, overrides);
    const upstream = await api.store.send(method, upstreamPath(target), headers, body);
    // S3 applies the response-* overrides of a signed GET to a successful answer only.
    const applies = (method === 'GET' || method === 'HEAD') && [200, 206].includes(upstream.statusCode ?? 0);
    await relay(upstream, response, applies ? overrides : {});
  };
  try {
    // A change to an object waits for a copy from it to finish (and the other way round).
    if (method === 'GET' || method === 'HEAD' || !target.key) await send();
    else await api.store.holding([target], send);
  } finally {
    if (spooled) await api.store.discard(spooled);
  }
}

/**
 * A GET with a Range header, answered as S3 does (range.ts): the object's size first (a HEAD),
 * then its bytes from the range's start, cut at the range's end.
 */
async function sendRange(
  api: S3Api,
  response: ServerResponse,
  target: Target,
  headers: OutgoingHttpHeaders,
  overrides: Record<string, string>,
) {
  const header = String(headers.range);
  delete headers.range;
  const path = upstreamPath(target);
  const range = parseRange(header);
  const head = range ? await api.store.send('HEAD', path, headers, undefined) : undefined;
  head?.resume();
  // No range to honour, or no object to take it from (the GET answers why: NoSuchKey, 304...).
  if (!range || !head || head.statusCode !== 200) {
    const upstream = await api.store.send('GET', path, headers, undefined);
    return relay(upstream, response, upstream.statusCode === 200 ? overrides : {});
  }
  const size = Number(head.headers['content-length'] ?? 0);
  const bytes = resolveRange(range, size);
  if (!bytes) {
    throw new S3Error('InvalidRange', 'The requested range is not satisfiable', 416, {
      RangeRequested: header,
      ActualObjectSize: size,
    });
  }
  const upstream = await api.store.send('GET', path, { ...headers, range: `bytes=${bytes.start}-` }, undefined);
  // The object changed between the two reads: the caller gets what s3rver has, as it answered.
  const total = /\/(\d+)$/.exec(String(upstream.headers['content-range'] ?? ''))?.[1];
  if (upstream.statusCode !== 206 || Number(total) !== size) return relay(upstream, response, {});
  const length = bytes.end - bytes.start + 1;
  const answered: Record<string, string> = {
    ...overrides,
    'content-range': `bytes ${bytes.start}-${bytes.end}/${size}`,
    'content-length': String(length),
  };
  await relay(upstream, response, answered, length);
}

async function listParts(api: S3Api, response: ServerResponse, target: Target) {
  const uploadId = target.query.get('uploadId') ?? '';
  const page = partsPageOf(target.query);
  const parts = await api.store.uploads.listParts(target.bucket, target.key, uploadId, page);
  sendXml(response, 200, listPartsXml({ bucket: target.bucket, key: target.key, uploadId, ...page }, parts));
}

async function abortUpload(api: S3Api, response: ServerResponse, target: Target) {
  await api.store.uploads.abort(target.bucket, target.key, target.query.get('uploadId') ?? '');
  response.writeHead(204).end();
}

/** The parts a CompleteMultipartUpload body names, in its order. */
function requestedParts(text: string): { partNumber: number; etag: string }[] {
  if (XMLValidator.validate(text) !== true) throw malformedXml();
  const parsed: unknown = new XMLParser({ isArray: (name) => name === 'Part', parseTagValue: false }).parse(text);
  const parts = (parsed as { CompleteMultipartUpload?: { Part?: unknown } }).CompleteMultipartUpload?.Part;
  if (!Array.isArray(parts) || parts.length === 0) throw malformedXml();
  return parts.map((part: unknown) => {
    const { PartNumber, ETag } = (part ?? {}) as { PartNumber?: unknown; ETag?: unknown };
    if (typeof ETag !== 'string' || typeof PartNumber !== 'string') throw malformedXml();
    return { partNumber: partNumberOf(PartNumber), etag: ETag };
  });
}

async function completeUpload(
  api: S3Api,
  request: IncomingMessage,
  response: ServerResponse,
  target: Target,
  payload: SignedPayload,
) {
  const uploadId = target.query.get('uploadId') ?? '';
  const expectation = payloadExpectation(request.headers, payload);
  const xml = await readAll(request, MAX_XML_BODY_BYTES, expectation);
  const requested = requestedParts(xml.toString('utf8'));
  const etag = await api.store.uploads.completionEtag(target.bucket, target.key, uploadId, requested);

  const headers = forwardedHeaders(request.headers);
  delete headers['transfer-encoding'];
  delete headers['content-encoding'];
  headers['content-length'] = String(xml.length);
  const completed = await api.store.holding([target], async () => {
    const upstream = await api.store.send('POST', upstreamPath(target), headers, xml);
    if (upstream.statusCode !== 200) return upstream;
    upstream.resume();
    // s3rver gave the object the MD5 of its bytes; S3's multipart ETag is the MD5 of the parts' MD5s.
    await api.store.uploads.setObjectEtag(target.bucket, target.key, etag);
    return undefined;
  });
  if (completed) return relay(completed, response);
  const location = `http://${request.headers.host ?? '127.0.0.1'}/${target.bucket}/${encodeKey(target.key)}`;
  sendXml(response, 200, completeMultipartUploadXml({ location, bucket: target.bucket, key: target.key, etag }));
}

async function uploadPart(
  api: S3Api,
  request: IncomingMessage,
  response: ServerResponse,
  target: Target,
  payload: SignedPayload,
) {
  partNumberOf(target.query.get('partNumber'));
  // s3rver would otherwise make a directory for any upload id it is given.
  await api.store.uploads.requireUpload(target.bucket, target.key, target.query.get('uploadId') ?? '');
  await forward(api, request, response, target, payload);
}

/**
 * CopyObject: the source read from s3rver and checked (its conditions, its size, that the copy
 * changes something), its bytes spooled and stored under the target key with the source's or
 * the request's headers, all while both keys are held, so no write to the source comes between
 * the check and the copy. The copy's ETag is the MD5 of its bytes, as S3 gives a copy made in
 * one call. Tags are not kept locally at all (nor by a POST or a PUT), so the tagging directive
 * is only checked.
 */
async function copyObject(
  api: S3Api,
  request: IncomingMessage,
  response: ServerResponse,
  target: Target,
  payload: SignedPayload,
) {
  const { store } = api;
  if (hasBody(request)) await store.spool(request, { keepAtMost: 0 }).then((spooled) => store.discard(spooled));
  else checkEmptyPayload(payload);
  const source = parseCopySource(String(request.headers['x-amz-copy-source']));
  refuseUnsafeKey(source.key);
  const metadata = directiveOf(request.headers, 'metadata');
  directiveOf(request.headers, 'tagging');
  checkNotCopyOntoItself(source, target, metadata);
  const host = request.headers.host ?? '127.0.0.1';
  const { etag, lastModified } = await store.holding([source, target], async () => {
    const upstream = await store.get(source, host);
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
    const spooled = await store.spool(upstream);
    try {
      const headers: OutgoingHttpHeaders = {
        ...copiedObjectHeaders(metadata, upstream.headers, request.headers),
        'content-length': String(spooled.size),
        host,
      };
      return { etag: await store.put(target, headers, spooled), lastModified: new Date() };
    } finally {
      await store.discard(spooled);
    }
  });
  sendXml(response, 200, copyObjectResultXml(etag, lastModified));
}

/** One request, to the operation that answers it; whatever the gateway does not answer itself goes to s3rver. */
export async function route(api: S3Api, request: IncomingMessage, response: ServerResponse, target: Target) {
  const method = request.method ?? '';
  if (method === 'OPTIONS') return preflight(request, response, target, api.allowedOrigins);
  if (method === 'POST' && target.bucket && !target.key && target.rawQuery.length === 0) {
    return presignedPost(api.store, api.credentials, request, response, target);
  }
  const arrived: ArrivedRequest = {
    method,
    rawPath: target.rawPath,
    query: target.rawQuery.map(({ name, value }) => [name, value] as const),
    headers: request.headers,
  };
  const payload = await verifyRequestSignature(arrived, api.credentials);
  const copies = request.headers['x-amz-copy-source'] !== undefined;
  // With an upload id it is UploadPartCopy, which s3rver refuses as not implemented (docs/architecture.md).
  if (method === 'PUT' && target.key && copies && !target.query.has('uploadId')) {
    return copyObject(api, request, response, target, payload);
  }
  if (target.key && target.query.has('uploadId')) {
    if (method === 'GET') return listParts(api, response, target);
    if (method === 'DELETE') return abortUpload(api, response, target);
    if (method === 'POST') return completeUpload(api, request, response, target, payload);
    if (method === 'PUT') return uploadPart(api, request, response, target, payload);
  }
  return forward(api, request, response, target, payload);
}
