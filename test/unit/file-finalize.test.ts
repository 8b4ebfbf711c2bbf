import { HeadObjectCommand, ListPartsCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../functions/lib/db/service';
import type { StoredFileItem } from '../../functions/lib/db/entities/stored-file';
import { HttpError } from '../../functions/lib/errors';
import { finalizeFile } from '../../functions/transfers/lib/finalize';

const s3 = mockClient(S3Client);
// Unit files share their modules (one thread, no isolation): leave the real client behind.
afterAll(() => s3.restore());

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
