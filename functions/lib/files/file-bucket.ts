import type { S3Client } from '@aws-sdk/client-s3';
import { boundedRequestHandler } from '../aws-request-handler';
import { ConfigError, getConfig } from '../config';
import { ServiceUnavailable } from '../errors';
import type * as S3SdkModule from './s3-sdk';

/**
 * The file bucket, as the file routes use it: presigned targets for the browser (the bytes never
 * pass through a Lambda), and the few direct calls that check and tidy what arrived. A bucket
 * that cannot be reached answers 503 (nothing was changed), never a generic 500.
 */

type S3Sdk = typeof S3SdkModule;
/** The SDK's parts (s3-sdk.ts) and the bucket's client, made on the first call to S3. */
type S3 = S3Sdk & { client: S3Client };

let client: S3Client | undefined;
let sdk: Promise<S3Sdk> | undefined;
const clientSetups: ((created: S3Client) => void)[] = [];

/**
 * Runs `setup` on the bucket's client once it exists: the local runtime adds IAM's checks of the
 * calling function's bucket grant this way, as it does on the table's client.
 */
export function onFileBucketClient(setup: (created: S3Client) => void): void {
  clientSetups.push(setup);
  if (client) setup(client);
}

/** The SDK, loaded once; a failed load is tried again on the next call. */
function loadSdk(): Promise<S3Sdk> {
  sdk ??= import('./s3-sdk').catch((error: unknown) => {
    sdk = undefined;
    throw error;
  });
  return sdk;
}

async function s3(): Promise<S3> {
  const loaded = await loadSdk();
  if (!client) {
    const config = getConfig();
    client = new loaded.S3Client({
      region: config.region,
      ...(config.s3Endpoint
        ? { endpoint: config.s3Endpoint, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
      maxAttempts: 2,
      requestHandler: boundedRequestHandler(10_000),
    });
    for (const setup of clientSetups) setup(client);
  }
  return { ...loaded, client };
}

const bucket = () => getConfig().fileBucketName;

export class FileStorageUnavailable extends ServiceUnavailable {
  constructor(cause: unknown) {
    super('File storage cannot be reached right now. Nothing was changed: please try again in a moment.', { cause });
  }
}

/** An error of S3's own (S3ServiceException), told apart once the SDK is loaded. */
async function s3Error(error: unknown): Promise<InstanceType<S3Sdk['S3ServiceException']> | undefined> {
  const loaded = await sdk?.catch(() => undefined);
  return loaded && error instanceof loaded.S3ServiceException ? error : undefined;
}

/**
 * S3's own refusals pass through to the caller's logic, and so does a missing setting (our bug,
 * not an outage); anything else (network, 5xx, an SDK that would not load) is a 503.
 */
async function call<T>(work: (s3: S3) => Promise<T>): Promise<T> {
  try {
    return await work(await s3());
  } catch (error) {
    if ((await s3Error(error))?.$fault === 'client' || error instanceof ConfigError) throw error;
    throw new FileStorageUnavailable(error);
  }
}

async function isMissing(error: unknown): Promise<boolean> {
  const loaded = await sdk?.catch(() => undefined);
  if (!loaded) return false;
  return (
    error instanceof loaded.NoSuchKey ||
    error instanceof loaded.NotFound ||
    error instanceof loaded.NoSuchUpload ||
    (error instanceof loaded.S3ServiceException && error.$metadata.httpStatusCode === 404)
  );
}

/** A presigned POST for one object: the key, exact size and type are pinned by its policy. */
/** The object tag that puts an object under a lifecycle rule (shared/transfers/retention.ts). */
const taggingOf = (tags: Record<string, string>) =>
  `<Tagging><TagSet>${Object.entries(tags)
    .map(([key, value]) => `<Tag><Key>${key}</Key><Value>${value}</Value></Tag>`)
    .join('')}</TagSet></Tagging>`;

export async function presignPost(options: {
  key: string;
  size: number;
  contentType: string;
  expiresInSeconds: number;
  tags?: Record<string, string> | undefined;
}) {
  const { url, fields } = await call(({ client, createPresignedPost }) =>
    createPresignedPost(client, {
      Bucket: bucket(),
      Key: options.key,
      Conditions: [
        ['content-length-range', options.size, options.size],
        ['eq', '$Content-Type', options.contentType],
      ],
      Fields: { 'Content-Type': options.contentType, ...(options.tags ? { tagging: taggingOf(options.tags) } : {}) },
      Expires: options.expiresInSeconds,
    }),
  );
  return { url, fields };
}

export async function startMultipartUpload(options: {
  key: string;
  contentType: string;
  tags?: Record<string, string> | undefined;
}): Promise<string> {
  const answer = await call(({ client, CreateMultipartUploadCommand }) =>
    client.send(
      new CreateMultipartUploadCommand({
        Bucket: bucket(),
        Key: options.key,
        ContentType: options.contentType,
        ...(options.tags ? { Tagging: new URLSearchParams(options.tags).toString() } : {}),
      }),
    ),
  );
  if (!answer.UploadId) throw new FileStorageUnavailable(new Error('CreateMultipartUpload answered no UploadId'));
  return answer.UploadId;
}

export function presignPart(options: { key: string; uploadId: string; partNumber: number; expiresInSeconds: number }) {
  return call(({ client, getSignedUrl, UploadPartCommand }) =>
    getSignedUrl(
      client,
      new UploadPartCommand({ Bucket: bucket(), Key: options.key, UploadId: options.uploadId, PartNumber: options.partNumber }),
      { expiresIn: options.expiresInSeconds },
    ),
  );
}

export interface StoredPart {
  partNumber: number;
  size: number;
  etag: string;
}

/** Every part S3 holds for an upload, in part order; null when the upload is unknown (completed or aborted). */
export async function listParts(options: { key: string; uploadId: string }): Promise<StoredPart[] | null> {
  const parts: StoredPart[] = [];
  let marker: string | undefined;
  try {
    do {
      const page = await call(({ client, ListPartsCommand }) =>
        client.send(
          new ListPartsCommand({ Bucket: bucket(), Key: options.key, UploadId: options.uploadId, PartNumberMarker: marker }),
        ),
      );
      for (const part of page.Parts ?? []) {
        if (part.PartNumber !== undefined && part.ETag !== undefined)
          parts.push({ partNumber: part.PartNumber, size: part.Size ?? 0, etag: part.ETag });
      }
      marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
    } while (marker);
  } catch (error) {
    if (await isMissing(error)) return null;
    throw error;
  }
  return parts;
}

/** S3 refused to join the parts: one but the last is under its 5 MiB minimum (EntityTooSmall). */
export class PartsTooSmall extends Error {
  constructor(cause: unknown) {
    super('A part but the last is under 5 MiB', { cause });
  }
}

export async function completeMultipartUpload(options: { key: string; uploadId: string; parts: readonly StoredPart[] }) {
  try {
    await call(({ client, CompleteMultipartUploadCommand }) =>
      client.send(
        new CompleteMultipartUploadCommand({
          Bucket: bucket(),
          Key: options.key,
          UploadId: options.uploadId,
          MultipartUpload: { Parts: options.parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })) },
        }),
      ),
    );
  } catch (error) {
    if ((await s3Error(error))?.name === 'EntityTooSmall') throw new PartsTooSmall(error);
    throw error;
  }
}

/** Drops an unfinished upload's parts; an upload already gone is fine. */
export async function abortMultipartUpload(options: { key: string; uploadId: string }): Promise<void> {
  try {
    await call(({ client, AbortMultipartUploadCommand }) =>
      client.send(new AbortMultipartUploadCommand({ Bucket: bucket(), Key: options.key, UploadId: options.uploadId })),
    );
  } catch (error) {
    if (!(await isMissing(error))) throw error;
  }
}

export interface StoredObject {
  size: number;
  contentType: string;
  etag: string;
  checksum: string | undefined;
}

/** What S3 holds under a key, or null when nothing. */
export async function headObject(key: string): Promise<StoredObject | null> {
  try {
    const head = await call(({ client, HeadObjectCommand }) =>
      client.send(new HeadObjectCommand({ Bucket: bucket(), Key: key, ChecksumMode: 'ENABLED' })),
    );
    return {
      size: head.ContentLength ?? 0,
      contentType: head.ContentType ?? '',
      etag: head.ETag ?? '',
      checksum: head.ChecksumSHA256 ?? undefined,
    };
  } catch (error) {
    if (await isMissing(error)) return null;
    throw error;
  }
}

/** The object is no longer the one a condition named (S3's 412 PreconditionFailed), or is gone. */
export class ObjectChanged extends Error {
  constructor(key: string, cause: unknown) {
    super(`${key} is no longer the object that was checked`, { cause });
  }
}

async function isPreconditionFailed(error: unknown): Promise<boolean> {
  const refusal = await s3Error(error);
  return refusal !== undefined && (refusal.name === 'PreconditionFailed' || refusal.$metadata.httpStatusCode === 412);
}

/** ObjectChanged when S3 refused because the object changed or went; the error itself otherwise. */
async function changedOr(key: string, error: unknown): Promise<unknown> {
  return (await isPreconditionFailed(error)) || (await isMissing(error)) ? new ObjectChanged(key, error) : error;
}

/** The first bytes of an object, to recognise an image from them; ObjectChanged unless it still has `etag`. */
export async function readObjectStart(key: string, length: number, etag: string): Promise<Uint8Array> {
  try {
    const answer = await call(({ client, GetObjectCommand }) =>
      client.send(new GetObjectCommand({ Bucket: bucket(), Key: key, Range: `bytes=0-${length - 1}`, IfMatch: etag })),
    );
    return answer.Body ? await call(() => answer.Body!.transformToByteArray()) : new Uint8Array();
  } catch (error) {
    throw await changedOr(key, error);
  }
}

/** S3 takes the copy source as `bucket/key`, URL-encoded (each segment, so the slashes stay). */
const copySourceOf = (key: string) => `${bucket()}/${key.split('/').map(encodeURIComponent).join('/')}`;

/**
 * Copies an object to another key in one call (S3 copies up to 5 GB so; a presigned POST holds
 * at most 16 MiB), with its type and other headers, on condition that it still has `etag`:
 * ObjectChanged when it does not (or is gone), and nothing is written. The copy gets `tags`
 * (the retention tag its lifecycle rule keys on) or none, rather than the source's: copying
 * tags would need s3:GetObjectTagging as well. Answers the copy's ETag.
 */
export async function copyObject(options: {
  from: string;
  to: string;
  etag: string;
  tags?: Record<string, string> | undefined;
}): Promise<string> {
  try {
    const answer = await call(({ client, CopyObjectCommand }) =>
      client.send(
        new CopyObjectCommand({
          Bucket: bucket(),
          Key: options.to,
          CopySource: copySourceOf(options.from),
          CopySourceIfMatch: options.etag,
          MetadataDirective: 'COPY',
          TaggingDirective: 'REPLACE',
          ...(options.tags ? { Tagging: new URLSearchParams(options.tags).toString() } : {}),
        }),
      ),
    );
    return answer.CopyObjectResult?.ETag ?? '';
  } catch (error) {
    throw await changedOr(options.from, error);
  }
}

export async function putObject(options: { key: string; body: Uint8Array; contentType: string }): Promise<void> {
  await call(({ client, PutObjectCommand }) =>
    client.send(
      new PutObjectCommand({
        Bucket: bucket(),
        Key: options.key,
        Body: options.body,
        ContentType: options.contentType,
        ChecksumAlgorithm: 'SHA256',
      }),
    ),
  );
}

export async function deleteObject(key: string): Promise<void> {
  await call(({ client, DeleteObjectCommand }) => client.send(new DeleteObjectCommand({ Bucket: bucket(), Key: key })));
}

/** Deletes many objects, 1,000 per call as S3 allows. */
export async function deleteObjects(keys: readonly string[]): Promise<void> {
  for (let start = 0; start < keys.length; start += 1_000) {
    const batch = keys.slice(start, start + 1_000);
    await call(({ client, DeleteObjectsCommand }) =>
      client.send(
        new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      ),
    );
  }
}

/** A presigned GET that names the file as the sender named it. */
export function presignGet(options: {
  key: string;
  fileName: string;
  contentType: string;
  disposition: 'attachment' | 'inline';
  expiresInSeconds: number;
}): Promise<string> {
  return call(({ client, getSignedUrl, GetObjectCommand }) =>
    getSignedUrl(
      client,
      new GetObjectCommand({
        Bucket: bucket(),
        Key: options.key,
        ResponseContentDisposition: contentDisposition(options.disposition, options.fileName),
        ResponseContentType: options.contentType,
      }),
      { expiresIn: options.expiresInSeconds },
    ),
  );
}

/** RFC 6266: an ASCII fallback and the UTF-8 name, so every browser saves the file under its name. */
export function contentDisposition(disposition: 'attachment' | 'inline', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
