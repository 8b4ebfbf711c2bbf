/**
 * Benchmark: the product's own upload client (the module the browser runs) sending 1 GiB to the
 * local S3 emulator through the presigned multipart flow, then one plain presigned PUT of the
 * same bytes to the same emulator, in alternating rounds. Prints one JSON line: the median
 * throughputs and ratio, and the process's peak resident memory while the client ran.
 */
import { createReadStream, openAsBlob, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadFile } from '../../web/src/lib/uploads/upload-client';
import { nodeTransport } from '../../web/src/lib/uploads/upload-transport-node';
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

/** Rounds of the client then the plain PUT: the emulator's speed wanders on a shared machine, so the verdict is on the median round. */
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3);

/** One upload of the file through the product's client, into a draft of its own (the free plan holds 2 GB). */
async function clientRound() {
  const transferId = await draftTransfer(session, 'Upload benchmark');
  const { files } = await createFiles(session, transferId, [
    { name: 'one-gib.bin', size: SIZE, type: 'application/octet-stream' },
  ]);
  const uploading = files[0];
  if (!uploading) throw new Error('No file record');
  const file = Object.assign(await openAsBlob(path, { type: 'application/octet-stream' }), {
    name: 'one-gib.bin',
    lastModified: 0,
  });
  const started = performance.now();
  let sentAt = 0;
  const stored = await uploadFile({
    file,
    uploading,
    api: uploadApi(session),
    // What a Node caller passes: fetch would hold each part in flight whole (see upload-transport-node.ts).
    transport: nodeTransport,
    // The last part is in: what follows is the finalize.
    onProgress: (progress) => {
      if (progress.phase === 'finalizing' && sentAt === 0) sentAt = performance.now();
    },
  });
  if (stored.status !== 'ready' || stored.size !== SIZE)
    throw new Error(`The upload ended ${stored.status} with ${stored.size} bytes`);
  return { sendSeconds: (sentAt - started) / 1000, withFinalizeSeconds: (performance.now() - started) / 1000 };
}

/** One PUT of the same bytes, streamed from disk, to a presigned URL of the same emulator. */
async function plainRound(url: string): Promise<number> {
  const started = performance.now();
  const put = await fetch(url, {
    method: 'PUT',
    body: createReadStream(path) as unknown as BodyInit,
    headers: { 'content-length': String(SIZE) },
    duplex: 'half',
  } as RequestInit);
  if (put.status !== 200) throw new Error(`The plain PUT answered ${put.status}: ${await put.text()}`);
  return (performance.now() - started) / 1000;
}

const median = (values: readonly number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

try {
  const before = process.memoryUsage().rss / 1024 / 1024;
  const memory = memoryPeak();
  const rounds: { clientMBps: number; withFinalizeMBps: number; plainMBps: number }[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    // Only the first round's memory is the client's: resident memory never shrinks back, and the
    // plain PUT after it (Node's fetch reads a streamed body into memory) would count in the next.
    const client = await clientRound();
    memory.pause();
    const plainSeconds = await plainRound(PLAIN_PUT_URL);
    rounds.push({
      clientMBps: SIZE / MB / client.sendSeconds,
      withFinalizeMBps: SIZE / MB / client.withFinalizeSeconds,
      plainMBps: SIZE / MB / plainSeconds,
    });
  }
  memory.stop();
  const ratios = rounds.map((round) => round.clientMBps / round.plainMBps);
  console.log(
    JSON.stringify({
      bytes: SIZE,
      rounds: ROUNDS,
      clientMBps: Math.round(median(rounds.map((round) => round.clientMBps))),
      clientWithFinalizeMBps: Math.round(median(rounds.map((round) => round.withFinalizeMBps))),
      plainMBps: Math.round(median(rounds.map((round) => round.plainMBps))),
      ratio: Math.round(median(ratios) * 100) / 100,
      ratios: ratios.map((ratio) => Math.round(ratio * 100) / 100),
      idleRssMb: Math.round(before),
      clientPeakRssMb: Math.round(memory.peakMb()),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
