import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { type BucketAccess, capabilitiesOf } from '../../shared/capabilities';
import { runAsFunction } from '../../functions/lib/function-environment';
import { enforceBucketGrants } from '../../infra/local/grants';

/** A client for a bucket nobody listens to: a call the grants let through fails on the network instead. */
function client(): S3Client {
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9',
    forcePathStyle: true,
    maxAttempts: 1,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  enforceBucketGrants(s3);
  return s3;
}

const as = <T>(bucket: BucketAccess, work: () => Promise<T>) =>
  runAsFunction({ name: `bucket-${bucket}`, capabilities: capabilitiesOf({ bucket }, { table: 'read' }), env: {} }, work);
const outcome = (work: Promise<unknown>) =>
  work.then(
    () => 'sent',
    (error: { name?: string }) => error.name ?? 'error',
  );
const Key = { Bucket: 'files', Key: 'transfers/t/f' };

describe('bucket grants, enforced locally as IAM enforces them in AWS', () => {
  it("refuses a read-only function's upload and delete with S3's AccessDenied, and lets it read", async () => {
    // Prepare
    const s3 = client();

    // Act
    const put = await outcome(as('read', () => s3.send(new PutObjectCommand({ ...Key, Body: 'x' }))));
    const remove = await outcome(as('read', () => s3.send(new DeleteObjectCommand(Key))));
    const get = await outcome(as('read', () => s3.send(new GetObjectCommand(Key))));

    // Assess
    expect(put).toBe('AccessDenied');
    expect(remove).toBe('AccessDenied');
    expect(get).not.toBe('AccessDenied');
  });

  it('refuses to presign what the function may not do, since S3 would refuse the URL', async () => {
    // Prepare
    const s3 = client();

    // Act
    const byReader = await outcome(as('read', () => getSignedUrl(s3, new PutObjectCommand(Key), { expiresIn: 60 })));
    const byWriter = await as('write', () => getSignedUrl(s3, new PutObjectCommand(Key), { expiresIn: 60 }));
    const readByWriter = await outcome(as('write', () => getSignedUrl(s3, new GetObjectCommand(Key), { expiresIn: 60 })));

    // Assess
    expect(byReader).toBe('AccessDenied');
    expect(byWriter).toContain('X-Amz-Signature=');
    expect(readByWriter).toBe('AccessDenied');
  });

  it('refuses a write-only function (one that signs uploads) any write to a final key, where finalize keeps checked bytes', async () => {
    // Prepare
    const s3 = client();
    const finalKey = { Bucket: 'files', Key: 'files/transfers/t/f' };

    // Act
    const signed = await outcome(as('write', () => getSignedUrl(s3, new PutObjectCommand(finalKey), { expiresIn: 60 })));
    const put = await outcome(as('write', () => s3.send(new PutObjectCommand({ ...finalKey, Body: 'x' }))));
    const copied = await outcome(
      as('read-write', () => s3.send(new CopyObjectCommand({ ...finalKey, CopySource: 'files/transfers/t/f' }))),
    );
    const copiedByWriter = await outcome(
      as('write', () => s3.send(new CopyObjectCommand({ ...finalKey, CopySource: 'files/transfers/t/f' }))),
    );

    // Assess
    expect(signed).toBe('AccessDenied');
    expect(put).toBe('AccessDenied');
    expect(copied).not.toBe('AccessDenied');
    expect(copiedByWriter).toBe('AccessDenied');
  });

  it('lets a read-write function delete, and code outside any function do anything', async () => {
    // Prepare
    const s3 = client();

    // Act
    const remove = await outcome(as('read-write', () => s3.send(new DeleteObjectCommand(Key))));
    const outside = await outcome(s3.send(new DeleteObjectCommand(Key)));

    // Assess
    expect(remove).not.toBe('AccessDenied');
    expect(outside).not.toBe('AccessDenied');
  });
});
