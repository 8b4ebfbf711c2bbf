import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  NoSuchKey,
  NoSuchUpload,
  NotFound as S3NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { ConfigError, getConfig } from '../config';
import { ServiceUnavailable } from '../errors';

/**
 * The file bucket, as the file routes use it: presigned targets for the browser (the bytes never
 * pass through a Lambda), and the few direct calls that check and tidy what arrived. A bucket
 * that cannot be reached answers 503 (nothing was changed), never a generic 500.
 */

let client: S3Client | undefined;
const clientSetups: ((created: S3Client) => void)[] = [];

/**
 * Runs `setup` on the bucket's client once it exists: the local runtime adds IAM's checks of the
 * calling function's bucket grant this way, as it does on the table's client.
 */
export function onFileBucketClient(setup: (created: S3Client) => void): void {
  clientSetups.push(setup);
  if (client) setup(client);
}

function s3(): S3Client {
  if (!client) {
    const config = getConfig();
    client = new S3Client({
      region: config.region,
      ...(config.s3Endpoint
        ? { endpoint: config.s3Endpoint, forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
      maxAttempts: 2,
      requestHandler: new NodeHttpHandler({ connectionTimeout: 1_000, requestTimeout: 10_000 }),
    });
    for (const setup of clientSetups) setup(client);
  }
  return client;
}

const bucket = () => getConfig().fileBucketName;

export class FileStorageUnavailable extends ServiceUnavailable {
  constructor(cause: unknown) {
    super('File storage cannot be reached right now. Nothing was changed: please try again in a moment.', { cause });
  }
}

/**
 * S3's own refusals pass through to the caller's logic, and so does a missing setting (our bug,
 * not an outage); anything else (network, 5xx) is a 503.
 */
async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error instanceof S3ServiceException && error.$fault === 'client') || error instanceof ConfigError) throw error;
    throw new FileStorageUnavailable(error);
  }
}

const isMissing = (error: unknown) =>
  error instanceof NoSuchKey ||
  error instanceof S3NotFound ||
  error instanceof NoSuchUpload ||
  (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);

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
  const { url, fields } = await call(() =>
    createPresignedPost(s3(), {
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
  const answer = await call(() =>
    s3().send(
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
  return call(() =>
    getSignedUrl(
      s3(),
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
      const page = await call(() =>
        s3().send(
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
    if (isMissing(error)) return null;
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
    await call(() =>
      s3().send(
        new CompleteMultipartUploadCommand({
          Bucket: bucket(),
          Key: options.key,
          UploadId: options.uploadId,
          MultipartUpload: { Parts: options.parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })) },
        }),
      ),
    );
  } catch (error) {
    if (error instanceof S3ServiceException && error.name === 'EntityTooSmall') throw new PartsTooSmall(error);
    throw error;
  }
}

/** Drops an unfinished upload's parts; an upload already gone is fine. */
export async function abortMultipartUpload(options: { key: string; uploadId: string }): Promise<void> {
  try {
    await call(() =>
      s3().send(new AbortMultipartUploadCommand({ Bucket: bucket(), Key: options.key, UploadId: options.uploadId })),
    );
  } catch (error) {
    if (!isMissing(error)) throw error;
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
    const head = await call(() => s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: key, ChecksumMode: 'ENABLED' })));
    return {
      size: head.ContentLength ?? 0,
      contentType: head.ContentType ?? '',
      etag: head.ETag ?? '',
      checksum: head.ChecksumSHA256 ?? undefined,
    };
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** The object is no longer the one a condition named (S3's 412 PreconditionFailed), or is gone. */
export class ObjectChanged extends Error {
  constructor(key: string, cause: unknown) {
    super(`${key} is no longer the object that was checked`, { cause });
  }
}

const isPreconditionFailed = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'PreconditionFailed' || error.$metadata.httpStatusCode === 412);

/** The first bytes of an object, to recognise an image from them; ObjectChanged unless it still has `etag`. */
export async function readObjectStart(key: string, length: number, etag: string): Promise<Uint8Array> {
  try {
    const answer = await call(() =>
      s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key, Range: `bytes=0-${length - 1}`, IfMatch: etag })),
    );
    return answer.Body ? await call(() => answer.Body!.transformToByteArray()) : new Uint8Array();
  } catch (error) {
    if (isPreconditionFailed(error) || isMissing(error)) throw new ObjectChanged(key, error);
    throw error;
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
    const answer = await call(() =>
      s3().send(
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
    if (isPreconditionFailed(error) || isMissing(error)) throw new ObjectChanged(options.from, error);
    throw error;
  }
}

export async function putObject(options: { key: string; body: Uint8Array; contentType: string }): Promise<void> {
  await call(() =>
    s3().send(
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
  await call(() => s3().send(new DeleteObjectCommand({ Bucket: bucket(), Key: key })));
}

/** Deletes many objects, 1,000 per call as S3 allows. */
export async function deleteObjects(keys: readonly string[]): Promise<void> {
  for (let start = 0; start < keys.length; start += 1_000) {
    const batch = keys.slice(start, start + 1_000);
    await call(() =>
      s3().send(new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } })),
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
  return call(() =>
    getSignedUrl(
      s3(),
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
