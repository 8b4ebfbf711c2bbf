import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../functions/lib/db/service';
import type { StoredFileItem } from '../../functions/lib/db/entities/stored-file';
import type { TransferItem } from '../../functions/lib/db/entities/transfer';
import { HttpError } from '../../functions/lib/errors';
import { finalizeFile } from '../../functions/transfers/lib/finalize';

const s3 = mockClient(S3Client);
const dynamo = mockClient(DynamoDBDocumentClient);
// Unit files share their modules (one thread, no isolation): leave the real clients behind.
afterAll(() => {
  s3.restore();
  dynamo.restore();
});

/** A table that must not be touched: any use fails the test. */
const untouchedDb = new Proxy({} as Db, {
  get: (_target, property) => {
    throw new Error(`the table was used (${String(property)}) although storage could not be reached`);
  },
});

const pendingFile = (overrides: Partial<StoredFileItem> = {}): StoredFileItem => ({
  fileId: 'file-1',
  purpose: 'transfer',
  ownerId: 'owner-1',
  transferId: 'transfer-1',
  folder: 'transfer:transfer-1',
  name: 'report.pdf',
  size: 1_000,
  contentType: 'application/pdf',
  status: 'pending',
  uploadMethod: 'post',
  objectKey: 'transfers/transfer-1/file-1',
  createdAt: '2026-11-26T10:00:00.000Z',
  ...overrides,
});

const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' });

describe('finalizing a file while storage is out of reach', () => {
  beforeAll(() => {
    process.env.FILE_BUCKET_NAME ??= 'unit-test-files';
    process.env.TABLE_NAME ??= 'unit-test-table';
    process.env.ALLOWED_ORIGINS ??= 'https://app.example';
  });
  afterEach(() => {
    s3.reset();
  });

  it('answers 503 and leaves a single upload pending', async () => {
    // Prepare
    s3.on(HeadObjectCommand).rejects(unreachable());

    // Act
    const outcome = finalizeFile(untouchedDb, pendingFile(), null, new Date());

    // Assess
    await expect(outcome).rejects.toBeInstanceOf(HttpError);
    await expect(outcome).rejects.toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(s3.commandCalls(HeadObjectCommand)[0]?.args[0].input).toEqual({
      Bucket: process.env.FILE_BUCKET_NAME,
      Key: 'transfers/transfer-1/file-1',
      ChecksumMode: 'ENABLED',
    });
  });

  it('answers 503 before completing a multipart upload, so no part is lost', async () => {
    // Prepare
    s3.on(ListPartsCommand).rejects(unreachable());
    const file = pendingFile({
      uploadMethod: 'multipart',
      uploadId: 'upload-1',
      partSize: 8 * 1024 * 1024,
      partCount: 2,
      size: 9_000_000,
    });

    // Act
    const outcome = finalizeFile(untouchedDb, file, null, new Date());

    // Assess
    await expect(outcome).rejects.toMatchObject({ statusCode: 503 });
    expect(s3.commandCalls(HeadObjectCommand)).toHaveLength(0);
  });
});

describe('finalizing a presigned POST: what recipients get is what was checked', () => {
  const TABLE = 'finalize-unit';
  const db = createDb(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), TABLE);
  const transfer = {
    transferId: 'transfer-1',
    createdAt: '2026-11-26T09:00:00.000Z',
    availableUntil: '2026-12-03T09:00:00.000Z',
    expiresAt: 1_799_999_999,
  } as TransferItem;
  const now = new Date('2026-11-26T10:05:00.000Z');
  const checked = { ContentLength: 1_000, ContentType: 'application/pdf', ETag: '"etag-checked"' };
  const bucket = () => process.env.FILE_BUCKET_NAME ?? '';
  const preconditionFailed = () =>
    new S3ServiceException({
      name: 'PreconditionFailed',
      $fault: 'client',
      $metadata: { httpStatusCode: 412 },
      message: 'At least one of the pre-conditions you specified did not hold',
    });

  beforeAll(() => {
    process.env.FILE_BUCKET_NAME ??= 'unit-test-files';
    process.env.TABLE_NAME ??= 'unit-test-table';
    process.env.ALLOWED_ORIGINS ??= 'https://app.example';
  });
  afterEach(() => {
    s3.reset();
    dynamo.reset();
  });

  it('copies the upload to a key no form names, on condition of the checked ETag, records that key as it makes the file ready, then deletes the upload', async () => {
    // Prepare
    const order: string[] = [];
    s3.on(HeadObjectCommand).resolves(checked);
    s3.on(CopyObjectCommand).callsFake(() => {
      order.push('copy');
      return { CopyObjectResult: { ETag: '"etag-checked"' } };
    });
    s3.on(DeleteObjectCommand).callsFake(() => {
      order.push('delete upload');
      return {};
    });
    dynamo.on(UpdateCommand).callsFake(() => {
      order.push('make ready');
      return {};
    });

    // Act
    const ready = await finalizeFile(db, pendingFile(), transfer, now);

    // Assess
    expect(ready).toMatchObject({ status: 'ready', checksum: 'etag-checked', finalKey: 'files/transfers/transfer-1/file-1' });
    expect(order).toEqual(['copy', 'make ready', 'delete upload']);
    expect(s3.commandCalls(CopyObjectCommand)[0]?.args[0].input).toEqual({
      Bucket: bucket(),
      Key: 'files/transfers/transfer-1/file-1',
      CopySource: `${bucket()}/transfers/transfer-1/file-1`,
      CopySourceIfMatch: '"etag-checked"',
      MetadataDirective: 'COPY',
      TaggingDirective: 'REPLACE',
      Tagging: 'retention-days=7',
    });
    const update = dynamo.commandCalls(UpdateCommand)[0]?.args[0].input;
    expect(update?.ConditionExpression).toContain('#status = :status');
    expect(Object.values(update?.ExpressionAttributeValues ?? {})).toEqual(
      expect.arrayContaining(['files/transfers/transfer-1/file-1', 'ready', 'pending', 'etag-checked']),
    );
    expect(s3.commandCalls(DeleteObjectCommand)[0]?.args[0].input).toEqual({
      Bucket: bucket(),
      Key: 'transfers/transfer-1/file-1',
    });
  });

  it('refuses with 409 an upload that changed between the check and the copy, recording and deleting nothing', async () => {
    // Prepare: the copy's ETag condition fails; the record is still pending.
    s3.on(HeadObjectCommand).resolves(checked);
    s3.on(CopyObjectCommand).rejects(preconditionFailed());
    dynamo.on(GetCommand).resolves({});

    // Act
    const outcome = finalizeFile(db, pendingFile(), transfer, now);

    // Assess
    await expect(outcome).rejects.toMatchObject({ statusCode: 409 });
    await expect(outcome).rejects.toThrow('report.pdf changed while it was being checked: finalize it again');
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(0);
  });

  it('repeats a finalize cut short after its copy: the upload is kept, copied again, and the file made ready', async () => {
    // Prepare: the table is out of reach for the first write only.
    s3.on(HeadObjectCommand).resolves(checked);
    s3.on(CopyObjectCommand).resolves({ CopyObjectResult: { ETag: '"etag-checked"' } });
    s3.on(DeleteObjectCommand).resolves({});
    dynamo
      .on(UpdateCommand)
      .rejectsOnce(Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }))
      .resolves({});

    // Act
    const first = await finalizeFile(db, pendingFile(), transfer, now).then(
      () => 'ready',
      (error: Error) => error.message,
    );
    const deletedAfterFirst = s3.commandCalls(DeleteObjectCommand).length;
    const again = await finalizeFile(db, pendingFile(), transfer, now);

    // Assess
    expect(first).toContain('ETIMEDOUT');
    expect(deletedAfterFirst).toBe(0);
    expect(again).toMatchObject({ status: 'ready', finalKey: 'files/transfers/transfer-1/file-1' });
    const copies = s3.commandCalls(CopyObjectCommand).map((call) => call.args[0].input);
    expect(copies).toHaveLength(2);
    expect(copies[1]).toEqual(copies[0]);
    expect(s3.commandCalls(DeleteObjectCommand)).toHaveLength(1);
  });

  it("sniffs an image from the bytes of the checked ETag only, and copies it without a transfer's tag", async () => {
    // Prepare: a PNG's first bytes (signature, IHDR with a 1x1 size).
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    s3.on(HeadObjectCommand).resolves({ ContentLength: png.length, ContentType: 'image/png', ETag: '"etag-png"' });
    s3.on(GetObjectCommand).resolves({ Body: { transformToByteArray: () => Promise.resolve(new Uint8Array(png)) } as never });
    s3.on(CopyObjectCommand).resolves({ CopyObjectResult: { ETag: '"etag-png"' } });
    s3.on(DeleteObjectCommand).resolves({});
    dynamo.on(UpdateCommand).resolves({});
    const image = pendingFile({
      purpose: 'image',
      transferId: undefined,
      folder: 'images:owner-1',
      name: 'avatar.png',
      size: png.length,
      contentType: 'image/png',
      objectKey: 'images/file-1',
    });

    // Act
    const ready = await finalizeFile(db, image, null, now);

    // Assess
    expect(ready.finalKey).toBe('files/images/file-1');
    expect(s3.commandCalls(GetObjectCommand)[0]?.args[0].input).toMatchObject({ Key: 'images/file-1', IfMatch: '"etag-png"' });
    expect(s3.commandCalls(CopyObjectCommand)[0]?.args[0].input).toEqual({
      Bucket: bucket(),
      Key: 'files/images/file-1',
      CopySource: `${bucket()}/images/file-1`,
      CopySourceIfMatch: '"etag-png"',
      MetadataDirective: 'COPY',
      TaggingDirective: 'REPLACE',
    });
  });
});
