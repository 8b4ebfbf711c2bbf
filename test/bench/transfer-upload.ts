/**
 * Benchmark: the product's own upload client (the module the browser runs) sending 1 GiB to the
 * local S3 emulator through the presigned multipart flow, then one plain presigned PUT of the
 * same bytes to the same emulator. Prints one JSON line: both throughputs, their ratio and the
 * client's memory (peak resident, and its growth over the process before the upload).
 */
import { createReadStream, openAsBlob, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { uploadFile } from '../../web/src/features/transfers/lib/upload-client';
import { fetchTransport } from '../../web/src/features/transfers/lib/upload-transport';
import { signIn } from './bench-session';
import { createFiles, draftTransfer, memoryPeak, uploadApi } from './transfer-session';

const { S3_ENDPOINT } = process.env;
if (!S3_ENDPOINT) throw new Error('Usage: S3_ENDPOINT=... API_URL=... tsx test/bench/transfer-upload.ts');
const SIZE = 1024 * 1024 * 1024;
const MB = 1_000_000;

const dir = mkdtempSync(join(tmpdir(), 'upload-bench-'));
const path = join(dir, 'one-gib.bin');
// Written in 16 MiB slices of varied bytes: no 1 GiB buffer in this process.
const slice = Buffer.alloc(16 * 1024 * 1024);
for (let index = 0; index < slice.length; index += 1) slice[index] = (index * 131) & 0xff;
writeFileSync(path, '');
for (let written = 0; written < SIZE; written += slice.length) writeFileSync(path, slice, { flag: 'a' });

try {
  const sender = await signIn('upload-bench');
  const transferId = await draftTransfer(sender.token, 'Upload benchmark');
  const { files } = await createFiles(sender.token, transferId, [{ name: 'one-gib.bin', size: SIZE, type: 'application/octet-stream' }]);
  const uploading = files[0];
  if (!uploading) throw new Error('No file record');
  const file = Object.assign(await openAsBlob(path, { type: 'application/octet-stream' }), { name: 'one-gib.bin', lastModified: 0 });

  const memory = memoryPeak();
  const before = process.memoryUsage().rss / 1024 / 1024;
  memory.reset();
  let started = performance.now();
  const stored = await uploadFile({ file, uploading, api: uploadApi(sender.token), transport: fetchTransport });
  const clientSeconds = (performance.now() - started) / 1000;
  const clientPeakMb = memory.peakMb();
  if (stored.status !== 'ready' || stored.size !== SIZE) throw new Error(`The upload ended ${stored.status} with ${stored.size} bytes`);

  // One PUT of the same bytes, streamed from disk, to a presigned URL of the same emulator.
  const s3 = new S3Client({
    region: 'us-east-1',
    endpoint: S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const url = await getSignedUrl(s3, new PutObjectCommand({ Bucket: 'toppubs-files', Key: 'transfers/bench/plain-put' }), {
    expiresIn: 600,
  });
  started = performance.now();
  const put = await fetch(url, {
    method: 'PUT',
    body: createReadStream(path) as unknown as BodyInit,
    headers: { 'content-length': String(SIZE) },
    duplex: 'half',
  } as RequestInit);
  const plainSeconds = (performance.now() - started) / 1000;
  if (put.status !== 200) throw new Error(`The plain PUT answered ${put.status}: ${await put.text()}`);
  memory.stop();

  const clientMBps = SIZE / MB / clientSeconds;
  const plainMBps = SIZE / MB / plainSeconds;
  console.log(
    JSON.stringify({
      bytes: SIZE,
      clientMBps: Math.round(clientMBps),
      plainMBps: Math.round(plainMBps),
      ratio: Math.round((clientMBps / plainMBps) * 100) / 100,
      clientPeakRssMb: Math.round(clientPeakMb),
      clientGrowthMb: Math.round(clientPeakMb - before),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
