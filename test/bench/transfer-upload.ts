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
import { uploadFile } from '../../web/src/features/transfers/lib/upload-client';
import { fetchTransport } from '../../web/src/features/transfers/lib/upload-transport';
import { memoryPeak } from './memory-peak';
import { createFiles, draftTransfer, session, uploadApi } from './transfer-session';

/** A presigned PUT to the same emulator, made by the caller: this process loads no SDK of its own. */
const { PLAIN_PUT_URL } = process.env;
if (!PLAIN_PUT_URL) throw new Error('Usage: PLAIN_PUT_URL=... API_URL=... BENCH_SESSION=... tsx test/bench/transfer-upload.ts');
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
  const sender = { token: session };
  const transferId = await draftTransfer(sender.token, 'Upload benchmark');
  const { files } = await createFiles(sender.token, transferId, [
    { name: 'one-gib.bin', size: SIZE, type: 'application/octet-stream' },
  ]);
  const uploading = files[0];
  if (!uploading) throw new Error('No file record');
  const file = Object.assign(await openAsBlob(path, { type: 'application/octet-stream' }), {
    name: 'one-gib.bin',
    lastModified: 0,
  });

  const memory = memoryPeak();
  const before = process.memoryUsage().rss / 1024 / 1024;
  memory.reset();
  let started = performance.now();
  let sentAt = 0;
  const stored = await uploadFile({
    file,
    uploading,
    api: uploadApi(sender.token),
    transport: fetchTransport,
    // The last part is in: what follows is the finalize.
    onProgress: (progress) => {
      if (progress.phase === 'finalizing' && sentAt === 0) sentAt = performance.now();
    },
  });
  const withFinalizeSeconds = (performance.now() - started) / 1000;
  const clientSeconds = (sentAt - started) / 1000;
  const clientPeakMb = memory.peakMb();
  if (stored.status !== 'ready' || stored.size !== SIZE)
    throw new Error(`The upload ended ${stored.status} with ${stored.size} bytes`);

  // One PUT of the same bytes, streamed from disk, to a presigned URL of the same emulator.
  const url = PLAIN_PUT_URL;
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
      clientWithFinalizeMBps: Math.round(SIZE / MB / withFinalizeSeconds),
      plainMBps: Math.round(plainMBps),
      ratio: Math.round((clientMBps / plainMBps) * 100) / 100,
      idleRssMb: Math.round(before),
      clientPeakRssMb: Math.round(clientPeakMb),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
