import { createHash, randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FileView, UploadingFile } from '../../shared/schemas/transfers';
import { partCountFor, partSizeFor } from '../../shared/transfers/upload-sizing';
import {
  backoffDelayMs,
  matchResumableFiles,
  parseS3Error,
  resumingUpload,
  UploadCancelled,
  UploadFailed,
  uploadFile,
  type FileUploadProgress,
  type UploadApi,
  type UploadFileOptions,
} from '../../web/src/lib/uploads/upload-client';
import {
  addSample,
  bytesPerSecond,
  scaledBytes,
  secondsLeft,
  SentBytes,
  sumProgress,
  TransferProgressMeter,
  type ProgressSample,
} from '../../web/src/lib/uploads/upload-progress';
import { fetchTransport, type UploadTransport } from '../../web/src/lib/uploads/upload-transport';
import { nodeTransport } from '../../web/src/lib/uploads/upload-transport-node';

const KIB = 1024;
/** Small parts: the fake S3 does not enforce S3's 5 MiB minimum, so a few hundred KiB make several parts. */
const PART_SIZE = 64 * KIB;
const FILE_ID = 'file_0123456789abcdef';
const UPLOAD_ID = 'upload-1';
const KEY = `transfers/t1/${FILE_ID}`;

type Fault = 'fail-500' | 'forbidden' | 'drop' | 'bad-request' | 'hold';

interface S3Request {
  method: string;
  partNumber: number | undefined;
  status: number | 'dropped' | 'held';
}

/**
 * A fake S3 on node:http: takes presigned POST forms and part PUTs, answers ETags, and does what
 * it is told to a given part (or to the form, part 0): fail with 500, 403 or 400, drop the
 * connection, or hold the request open. Part urls carry their expiry; an expired one gets 403.
 */
interface FakeS3 {
  url: string;
  objects: Map<string, Buffer>;
  /** Form field names of each POST, in the order they arrived. */
  formFieldOrders: string[][];
  parts: Map<number, Buffer>;
  requests: S3Request[];
  /** Faults to apply, in turn, to the next requests for a part (0: the POST form). */
  faults: Map<number, Fault[]>;
  maxActive: number;
  active: number;
  /** Requests the client closed before an answer. */
  closedByClient: number;
  /** Milliseconds every answer waits, so that parts overlap. */
  delayMs: number;
  /** The clock part urls expire by. */
  now: () => number;
  /** Called after each part S3 stored. */
  onPartStored: (partNumber: number) => void;
  close(): Promise<void>;
}

function s3ErrorXml(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>R1</RequestId></Error>`;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

async function startFakeS3(): Promise<FakeS3> {
  const s3: Omit<FakeS3, 'url' | 'close'> = {
    objects: new Map(),
    formFieldOrders: [],
    parts: new Map(),
    requests: [],
    faults: new Map(),
    maxActive: 0,
    active: 0,
    closedByClient: 0,
    delayMs: 0,
    now: () => Date.now(),
    onPartStored: () => undefined,
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://s3.local');
    const partNumber = request.method === 'PUT' ? Number(url.searchParams.get('partNumber')) : undefined;
    const record: S3Request = { method: request.method ?? '', partNumber, status: 'held' };
    s3.requests.push(record);
    const fault = s3.faults.get(partNumber ?? 0)?.shift();
    if (fault === 'drop') {
      record.status = 'dropped';
      request.socket.destroy();
      return;
    }
    const body = await readBody(request);
    // Held: the body is read, as S3 reads it, but no answer ever comes.
    if (fault === 'hold') return;
    if (s3.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, s3.delayMs));
    const answer = (status: number, headers: Record<string, string> = {}, text = '') => {
      record.status = status;
      response.writeHead(status, { ...headers, 'content-type': text ? 'application/xml' : 'text/plain' }).end(text);
    };
    if (fault === 'fail-500')
      return answer(500, {}, s3ErrorXml('InternalError', 'We encountered an internal error. Please try again.'));
    if (fault === 'forbidden') return answer(403, {}, s3ErrorXml('AccessDenied', 'Request has expired'));
    if (fault === 'bad-request')
      return answer(400, {}, s3ErrorXml('InvalidArgument', 'Part number must be an integer between 1 and 10000'));
    if (request.method === 'POST') {
      const form = await new Response(new Uint8Array(body), {
        headers: { 'content-type': request.headers['content-type'] ?? '' },
      }).formData();
      s3.formFieldOrders.push([...form.keys()]);
      const file = form.get('file');
      const key = form.get('key');
      if (!(file instanceof Blob) || typeof key !== 'string')
        return answer(400, {}, s3ErrorXml('InvalidArgument', 'No file or key'));
      const expires = form.get('x-test-expires');
      if (typeof expires === 'string' && Number(expires) <= s3.now())
        return answer(403, {}, s3ErrorXml('AccessDenied', 'Invalid according to Policy: Policy expired.'));
      s3.objects.set(key, Buffer.from(await file.arrayBuffer()));
      return answer(204);
    }
    if (request.method === 'PUT' && partNumber) {
      if (Number(url.searchParams.get('expires')) <= s3.now())
        return answer(403, {}, s3ErrorXml('AccessDenied', 'Request has expired'));
      s3.parts.set(partNumber, body);
      s3.onPartStored(partNumber);
      return answer(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` });
    }
    answer(405);
  }

  const server: Server = createServer((request, response) => {
    s3.active += 1;
    s3.maxActive = Math.max(s3.maxActive, s3.active);
    response.on('close', () => {
      s3.active -= 1;
      if (!response.writableFinished) s3.closedByClient += 1;
    });
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(s3, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

function fileView(size: number, overrides: Partial<FileView> = {}): FileView {
  return {
    id: FILE_ID,
    purpose: 'transfer',
    transferId: 't1',
    name: 'holiday.mov',
    size,
    type: 'video/quicktime',
    status: 'pending',
    uploadMethod: size <= 16 * 1024 * 1024 ? 'post' : 'multipart',
    lastModified: 1_700_000_000_000,
    checksum: null,
    createdAt: '2030-01-01T00:00:00.000Z',
    readyAt: null,
    ...overrides,
  };
}

interface FakeApi extends UploadApi {
  /** The forms signed again, each with a signature of its own. */
  formsSigned: string[];
  signed: number[][];
  finalized: number;
  aborted: number;
  /** Errors the next sign-parts calls throw, in turn. */
  signFailures: unknown[];
}

/** The files API in memory, over the fake S3: signs forms and part urls (valid 15 minutes by `now`), lists held parts, completes. */
function fakeApi(s3: FakeS3, record: FileView, now: () => number = () => Date.now()): FakeApi {
  const api: FakeApi = {
    formsSigned: [],
    async signForm() {
      const signature = `fresh-${api.formsSigned.length + 1}`;
      api.formsSigned.push(signature);
      const expiresAtMs = now() + 15 * 60_000;
      return {
        upload: {
          method: 'post',
          url: `${s3.url}/bucket`,
          fields: {
            key: KEY,
            'Content-Type': 'video/quicktime',
            'X-Amz-Signature': signature,
            'x-test-expires': String(expiresAtMs),
          },
          expiresAt: new Date(expiresAtMs).toISOString(),
        },
      };
    },
    signed: [],
    finalized: 0,
    aborted: 0,
    signFailures: [],
    async signParts(_fileId, partNumbers) {
      api.signed.push([...partNumbers]);
      const failure = api.signFailures.shift();
      if (failure) throw failure;
      const expiresAtMs = now() + 15 * 60_000;
      return {
        parts: partNumbers.map((partNumber) => ({
          partNumber,
          url: `${s3.url}/bucket/${KEY}?uploadId=${UPLOAD_ID}&partNumber=${partNumber}&expires=${expiresAtMs}`,
        })),
        expiresAt: new Date(expiresAtMs).toISOString(),
      };
    },
    async listParts() {
      return {
        parts: [...s3.parts].map(([partNumber, bytes]) => ({
          partNumber,
          size: bytes.length,
          etag: `"${createHash('md5').update(bytes).digest('hex')}"`,
        })),
      };
    },
    async finalize() {
      api.finalized += 1;
      if (record.uploadMethod === 'multipart') {
        const numbers = [...s3.parts.keys()].sort((a, b) => a - b);
        s3.objects.set(KEY, Buffer.concat(numbers.map((partNumber) => s3.parts.get(partNumber)!)));
      }
      return { file: { ...record, status: 'ready', readyAt: '2030-01-01T00:01:00.000Z' } };
    },
    async abort() {
      api.aborted += 1;
      return { file: record };
    },
  };
  return api;
}

function bytesOf(size: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(randomBytes(size));
}

function multipartUploading(size: number, partSize = PART_SIZE): UploadingFile {
  return {
    file: fileView(size, { uploadMethod: 'multipart' }),
    upload: { method: 'multipart', partSize, partCount: partCountFor(size, partSize) },
  };
}

/** Waits recorded, none waited: backoff without slowing the suite. */
function instantRetries(): { delays: number[]; retry: NonNullable<UploadFileOptions['retry']> } {
  const delays: number[] = [];
  return {
    delays,
    retry: {
      sleep: (ms, signal) => {
        delays.push(ms);
        return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
      },
    },
  };
}

function partPuts(s3: FakeS3): number[] {
  return s3.requests.filter((request) => request.method === 'PUT').map((request) => request.partNumber!);
}

/** Every transport a Node caller may pass: the client must behave the same through each. */
const nodeTransports: [string, UploadTransport][] = [
  ['fetchTransport', fetchTransport],
  ['nodeTransport', nodeTransport],
];

describe.each(nodeTransports)('uploadFile through %s against a fake S3', (_name, transport) => {
  let s3: FakeS3;

  beforeEach(async () => {
    s3 = await startFakeS3();
  });

  afterEach(async () => {
    await s3.close();
  });

  describe('a small file (one presigned POST)', () => {
    /** A form as createBRecord answers it; one made to run out also tells the fake S3 when it does. */
    function postUploading(size: number, ranOutAtMs?: number): UploadingFile {
      const expiresAtMs = ranOutAtMs ?? Date.now() + 15 * 60_000;
      return {
        file: fileView(size),
        upload: {
          method: 'post',
          url: `${s3.url}/bucket`,
          fields: {
            key: KEY,
            'Content-Type': 'video/quicktime',
            Policy: 'eyJwb2xpY3kiOiJ4In0=',
            'X-Amz-Signature': 'abc',
            ...(ranOutAtMs === undefined ? {} : { 'x-test-expires': String(ranOutAtMs) }),
          },
          expiresAt: new Date(expiresAtMs).toISOString(),
        },
      };
    }

    it('stores exactly the file, sending the policy fields in order and the file last, then finalizes', async () => {
      // Prepare
      const bytes = bytesOf(300 * KIB);
      const uploading = postUploading(bytes.length);
      const api = fakeApi(s3, uploading.file);
      const progress: FileUploadProgress[] = [];

      // Act
      const file = await uploadFile({
        file: new File([bytes], 'holiday.mov', { type: 'video/quicktime' }),
        uploading,
        api,
        transport,
        onProgress: (event) => progress.push(event),
      });

      // Assess
      expect(file.status).toBe('ready');
      expect(s3.objects.get(KEY)?.equals(bytes)).toBe(true);
      expect(s3.formFieldOrders).toEqual([['key', 'Content-Type', 'Policy', 'X-Amz-Signature', 'file']]);
      expect(api.finalized).toBe(1);
      expect(progress.at(-1)).toEqual({
        fileId: FILE_ID,
        sentBytes: bytes.length,
        totalBytes: bytes.length,
        phase: 'finalizing',
      });
    });

    it('sends the whole form again after a 500, and after a dropped connection', async () => {
      // Prepare
      const bytes = bytesOf(100 * KIB);
      const uploading = postUploading(bytes.length);
      const api = fakeApi(s3, uploading.file);
      s3.faults.set(0, ['fail-500', 'drop']);
      const { delays, retry } = instantRetries();

      // Act
      await uploadFile({ file: new File([bytes], 'holiday.mov'), uploading, api, transport, retry });

      // Assess
      expect(s3.requests.map((request) => request.status)).toEqual([500, 'dropped', 204]);
      expect(delays).toHaveLength(2);
      expect(s3.objects.get(KEY)?.equals(bytes)).toBe(true);
    });

    it('signs a form refused with 403 again once, and fails with S3 code and status when the new one is refused too', async () => {
      // Prepare
      const bytes = bytesOf(10 * KIB);
      const uploading = postUploading(bytes.length);
      const api = fakeApi(s3, uploading.file);
      s3.faults.set(0, ['forbidden', 'forbidden']);

      // Act
      const outcome = uploadFile({
        file: new File([bytes], 'holiday.mov'),
        uploading,
        api,
        transport,
        retry: instantRetries().retry,
      });

      // Assess
      await expect(outcome).rejects.toMatchObject({ name: 'UploadFailed', status: 403, code: 'AccessDenied', fileId: FILE_ID });
      expect(s3.requests).toHaveLength(2);
      expect(api.formsSigned).toHaveLength(1);
      expect(api.finalized).toBe(0);
    });

    it('signs the form again when it ran out while the file waited for its turn, and sends the new one', async () => {
      // Prepare: a form that ran out a minute ago, and S3 that refuses it by the same clock.
      const bytes = bytesOf(20 * KIB);
      const uploading = postUploading(bytes.length, Date.now() - 60_000);
      const api = fakeApi(s3, uploading.file);

      // Act
      const file = await uploadFile({ file: new File([bytes], 'holiday.mov'), uploading, api, transport });

      // Assess
      expect(file.status).toBe('ready');
      expect(api.formsSigned).toEqual(['fresh-1']);
      expect(s3.requests.map((request) => request.status)).toEqual([204]);
      expect(s3.objects.get(KEY)?.equals(bytes)).toBe(true);
    });

    it('signs a form that ran out by S3 clock though not by ours again after its 403, and completes', async () => {
      // Prepare: our clock says the form has ten minutes left; S3 says it ran out.
      const bytes = bytesOf(20 * KIB);
      const uploading = postUploading(bytes.length);
      const api = fakeApi(s3, uploading.file);
      s3.faults.set(0, ['forbidden']);

      // Act
      const file = await uploadFile({
        file: new File([bytes], 'holiday.mov'),
        uploading,
        api,
        transport,
        retry: instantRetries().retry,
      });

      // Assess
      expect(file.status).toBe('ready');
      expect(api.formsSigned).toEqual(['fresh-1']);
      expect(s3.requests.map((request) => request.status)).toEqual([403, 204]);
      expect(s3.formFieldOrders.at(-1)).toContain('x-test-expires');
    });
  });

  describe('a large file (multipart)', () => {
    it('stores exactly the file from several parts, each sent once, and finalizes once', async () => {
      // Prepare
      const bytes = bytesOf(4 * PART_SIZE + 1234);
      const uploading = multipartUploading(bytes.length);
      const api = fakeApi(s3, uploading.file);

      // Act
      const file = await uploadFile({ file: new File([bytes], 'holiday.mov'), uploading, api, transport });

      // Assess
      expect(file.status).toBe('ready');
      expect(uploading.upload).toMatchObject({ partCount: 5 });
      expect(partPuts(s3).sort()).toEqual([1, 2, 3, 4, 5]);
      expect(api.signed).toEqual([[1, 2, 3, 4, 5]]);
      expect(api.finalized).toBe(1);
      expect(s3.objects.get(KEY)?.equals(bytes)).toBe(true);
    });

    it('uploads a file opened from disk with fs.openAsBlob (how Node, and the benchmark, use it)', async () => {
      // Prepare
      const folder = await mkdtemp(join(tmpdir(), 'upload-client-'));
      try {
        const bytes = bytesOf(3 * PART_SIZE + 10);
        const path = join(folder, 'holiday.mov');
        await writeFile(path, bytes);
        const uploading = multipartUploading(bytes.length);
        const api = fakeApi(s3, uploading.file);
        const onDisk = new File([await openAsBlob(path)], 'holiday.mov');

        // Act
        await uploadFile({ file: onDisk, uploading, api, transport });

        // Assess
        expect(s3.objects.get(KEY)?.equals(bytes)).toBe(true);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    it('retries a part that fails twice with 500, backing off longer each time, and completes', async () => {
      // Prepare
      const bytes = bytesOf(3 * PART_SIZE);
      const uploading = multipartUploading(bytes.length);
      const api = fakeApi(s3, uploading.file);
      s3.faults.set(2, ['fail-500', 'fail-500']);
      const { delays, retry } = instantRetries();

      // Act
      await uploadFile({
        file: new File([bytes], 'holiday.mov'),
        uploading,
        api,
        transport,
        retry: { ...retry, random: () => 1 },
      });

      // Assess
      expect(partPuts(s3).filter((partNumber) => partNumber === 2)).toHaveLength(3);
      expect(delays).toEqual([500, 1_000]);
      expect(s3.objects.get(KEY)?.equals(bytes)).toBe(true);
    });

    it('retries a part whose connection was dropped', async () => {
      // Prepare
      const bytes = bytesOf(3 * PART_SIZE);
      const uploading = multipartUploading(bytes.length);
      const api = fakeApi(s3, uploading.file);
      s3.faults.set(3, ['drop']);

      // Act
      await uploadFile({
        file: new File([bytes], 'holiday.mov'),
        uploading,
        api,
        transport,
        retry: instantRetries().retry,
      });

      // Assess
      expect(s3.requests.filter((request) => request.partNumber === 3).map((request) => request.status)).toEqual([
        'dropped',
        200,
      ]);
      expect(s3.objects.get(KEY)?.equals(bytes)).toBe(true);
    });

    it('signs a part again after a 403 (an expired url) and completes', async () => {
      // Prepare
      const bytes = bytesOf(3 * PART_SIZE);
      const uploading = multipartUploading(bytes.length);
      const api = fakeApi(s3, uploading.file);
      s3.faults.set(2, ['forbidden']);

      // Act
      await uploadFile({
        file: new File([bytes], 'holiday.mov'),
        uploading,
        api,
        transport,
        concurrency: 1,
        retry: instantRetries().retry,
      });

      // Assess
      expect(api.signed).toEqual([[1, 2, 3], [2]]);
      expect(s3.objects.get(KEY)?.equals(bytes)).toBe(true);
    });

    it('signs urls again before they expire, so no part is refused for an expired url', async () => {
      // Prepare: each stored part takes 4 minutes by the shared clock; urls last 15 minutes.
      let now = Date.UTC(2030, 0, 1);
      const bytes = bytesOf(5 * PART_SIZE);
      const uploading = multipartUploading(bytes.length);
      const api = fakeApi(s3, uploading.file, () => now);
      s3.now = () => now;
      s3.onPartStored = () => {
        now += 4 * 60_000;
      };

      // Act
      await uploadFile({
        file: new File([bytes], 'holiday.mov'),
        uploading,
        api,
        transport,
        concurrency: 1,
        now: () => now,
      });

      // Assess
      expect(s3.requests.every((request) => request.status === 200)).toBe(true);
      expect(api.signed).toEqual([
        [1, 2, 3, 4, 5],
        [4, 5],
      ]);
      expect(s3.objects.get(KEY)?.equals(bytes)).toBe(true);
    });

    it('retries a sign-parts call the API answered 503, and fails on one it refused (409)', async () => {
      // Prepare
      const bytes = bytesOf(2 * PART_SIZE);
      const first = fakeApi(s3, multipartUploading(bytes.length).file);
      first.signFailures.push(Object.assign(new Error('Service Unavailable'), { status: 503 }));
      const second = fakeApi(s3, multipartUploading(bytes.length).file);
      second.signFailures.push(Object.assign(new Error('This file is ready'), { status: 409, code: 'Conflict' }));
      const base = {
        file: new File([bytes], 'holiday.mov'),
        uploading: multipartUploading(bytes.length),
        transport,
        retry: instantRetries().retry,
      };

      // Act
      const retried = await uploadFile({ ...base, api: first });
      s3.parts.clear();
      const refused = uploadFile({ ...base, api: second });

      // Assess
      expect(retried.status).toBe('ready');
      await expect(refused).rejects.toMatchObject({ name: 'UploadFailed', status: 409, code: 'Conflict' });
      expect(second.finalized).toBe(0);
    });

    it('fails with UploadFailed, status and S3 code when a part is refused with 400, sending nothing more', async () => {
      // Prepare
      const bytes = bytesOf(4 * PART_SIZE);
      const uploading = multipartUploading(bytes.length);
      const api = fakeApi(s3, uploading.file);
      s3.faults.set(2, ['bad-request']);

      // Act
      const outcome = uploadFile({
        file: new File([bytes], 'holiday.mov'),
        uploading,
        api,
        transport,
        concurrency: 1,
        retry: instantRetries().retry,
      });

      // Assess
      const error = await outcome.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UploadFailed);
      expect(error).toMatchObject({ status: 400, code: 'InvalidArgument', partNumber: 2 });
      expect((error as Error).message).toContain('InvalidArgument');
      expect(partPuts(s3)).toEqual([1, 2]);
      expect(api.finalized).toBe(0);
    });

    it('gives up on a part after six tries', async () => {
      // Prepare
      const bytes = bytesOf(2 * PART_SIZE);
      const uploading = multipartUploading(bytes.length);
      const api = fakeApi(s3, uploading.file);
      s3.faults.set(1, Array<Fault>(10).fill('fail-500'));
      const { delays, retry } = instantRetries();

      // Act
      const outcome = uploadFile({
        file: new File([bytes], 'holiday.mov'),
        uploading,
        api,
        transport,
        concurrency: 1,
        retry,
      });

      // Assess
      await expect(outcome).rejects.toMatchObject({ name: 'UploadFailed', status: 500, code: 'InternalError', partNumber: 1 });
      expect(partPuts(s3)).toEqual([1, 1, 1, 1, 1, 1]);
      expect(delays).toHaveLength(5);
    });

    it('resumes: sends only the parts S3 does not hold at the right size, counting the others as sent at once', async () => {
      // Prepare: parts 1 and 3 are held; part 2 is held short (an interrupted write).
      const bytes = bytesOf(5 * PART_SIZE);
      const uploading = multipartUploading(bytes.length);
      const api = fakeApi(s3, uploading.file);
      const part = (partNumber: number) => Buffer.from(bytes.subarray((partNumber - 1) * PART_SIZE, partNumber * PART_SIZE));
      s3.parts.set(1, part(1));
      s3.parts.set(2, part(2).subarray(0, 1000));
      s3.parts.set(3, part(3));
      const progress: FileUploadProgress[] = [];

      // Act
      await uploadFile({
        file: new File([bytes], 'holiday.mov'),
        uploading,
        api,
        transport,
        onProgress: (event) => progress.push(event),
      });

      // Assess
      expect(partPuts(s3).sort()).toEqual([2, 4, 5]);
      expect(api.signed).toEqual([[2, 4, 5]]);
      expect(progress[0]?.sentBytes).toBe(2 * PART_SIZE);
      expect(s3.objects.get(KEY)?.equals(bytes)).toBe(true);
    });

    it('cancels: the signal aborts the parts in flight, sends nothing more and rejects with UploadCancelled', async () => {
      // Prepare: S3 holds the first two parts' requests open.
      const bytes = bytesOf(6 * PART_SIZE);
      const uploading = multipartUploading(bytes.length);
      const api = fakeApi(s3, uploading.file);
      s3.faults.set(1, ['hold']);
      s3.faults.set(2, ['hold']);
      const controller = new AbortController();
      const outcome = uploadFile({
        file: new File([bytes], 'holiday.mov'),
        uploading,
        api,
        transport,
        concurrency: 2,
        signal: controller.signal,
      });
      await vi.waitFor(() => expect(s3.active).toBe(2));

      // Act
      controller.abort();

      // Assess
      await expect(outcome).rejects.toBeInstanceOf(UploadCancelled);
      await vi.waitFor(() => expect(s3.closedByClient).toBe(2));
      expect(partPuts(s3)).toEqual([1, 2]);
      expect(api.finalized).toBe(0);
      expect(api.aborted).toBe(0);
    });

    it('rejects at once, sending nothing, when the signal is already aborted', async () => {
      // Prepare
      const bytes = bytesOf(2 * PART_SIZE);
      const uploading = multipartUploading(bytes.length);
      const api = fakeApi(s3, uploading.file);

      // Act
      const outcome = uploadFile({
        file: new File([bytes], 'holiday.mov'),
        uploading,
        api,
        transport,
        signal: AbortSignal.abort(),
      });

      // Assess
      await expect(outcome).rejects.toBeInstanceOf(UploadCancelled);
      expect(s3.requests).toHaveLength(0);
      expect(api.signed).toHaveLength(0);
    });

    it('refuses a file whose size is not the one the record declared', async () => {
      // Prepare
      const uploading = multipartUploading(3 * PART_SIZE);
      const api = fakeApi(s3, uploading.file);

      // Act
      const outcome = uploadFile({
        file: new File([bytesOf(3 * PART_SIZE - 1)], 'holiday.mov'),
        uploading,
        api,
        transport,
      });

      // Assess
      await expect(outcome).rejects.toThrow(/bytes now but was/);
      expect(s3.requests).toHaveLength(0);
    });

    it('never has more parts in flight than the concurrency (4 by default)', async () => {
      // Prepare: answers wait a little, so that parts overlap.
      const bytes = bytesOf(10 * PART_SIZE);
      s3.delayMs = 15;

      // Act
      await uploadFile({
        file: new File([bytes], 'holiday.mov'),
        uploading: multipartUploading(bytes.length),
        api: fakeApi(s3, fileView(bytes.length)),
        transport,
        concurrency: 3,
      });
      const withThree = s3.maxActive;
      s3.maxActive = 0;
      s3.parts.clear();
      await uploadFile({
        file: new File([bytes], 'holiday.mov'),
        uploading: multipartUploading(bytes.length),
        api: fakeApi(s3, fileView(bytes.length)),
        transport,
      });

      // Assess
      expect(withThree).toBe(3);
      expect(s3.maxActive).toBe(4);
    });
  });
});

/** The client's own progress arithmetic, through a transport that reports before answering as XMLHttpRequest does. */
describe('uploadFile progress against a fake S3', () => {
  let s3: FakeS3;

  beforeEach(async () => {
    s3 = await startFakeS3();
  });

  afterEach(async () => {
    await s3.close();
  });

  it('reports progress that only rises, but for a retried part rolled back, and ends at the file size', async () => {
    // Prepare: a transport that, like XMLHttpRequest, reports half of each body before the answer.
    const bytes = bytesOf(6 * PART_SIZE + 999);
    const uploading = multipartUploading(bytes.length);
    const api = fakeApi(s3, uploading.file);
    s3.faults.set(3, ['fail-500']);
    const halfway: UploadTransport = {
      send: (request) => {
        const size = request.body instanceof Blob ? request.body.size : 0;
        request.onProgress?.(size / 2, size);
        return fetchTransport.send(request);
      },
    };
    const progress: FileUploadProgress[] = [];

    // Act
    await uploadFile({
      file: new File([bytes], 'holiday.mov'),
      uploading,
      api,
      transport: halfway,
      concurrency: 2,
      retry: instantRetries().retry,
      onProgress: (event) => progress.push(event),
    });

    // Assess
    const sent = progress.map((event) => event.sentBytes);
    const drops = sent.flatMap((value, index) => (index > 0 && value < sent[index - 1]! ? [sent[index - 1]! - value] : []));
    expect(drops).toEqual([PART_SIZE / 2]);
    expect(Math.max(...sent)).toBe(bytes.length);
    expect(progress.at(-1)).toMatchObject({ sentBytes: bytes.length, totalBytes: bytes.length, phase: 'finalizing' });
    expect(progress.filter((event) => event.phase === 'finalizing')).toHaveLength(1);
  });
});

describe('matchResumableFiles', () => {
  const picked = (name: string, size: number, lastModified: number) => ({ name, size, lastModified });
  const big = 100 * 1024 * 1024;

  it('pairs a picked file with the pending multipart file of the same name, size and last-modified time', () => {
    // Prepare
    const pending = [
      fileView(big, { id: 'f-other', name: 'b.mov' }),
      fileView(big, { id: 'f-match', name: 'a.mov', lastModified: 5 }),
    ];

    // Act
    const matches = matchResumableFiles([picked('a.mov', big, 5), picked('c.mov', big, 5)], pending);

    // Assess
    expect(matches.map((match) => match.resume?.id ?? null)).toEqual(['f-match', null]);
  });

  it('does not pair on a different size or time, a ready file, a single-POST file, or one server file twice', () => {
    // Prepare
    const pending = [
      fileView(big, { id: 'f-1', name: 'a.mov', lastModified: 5 }),
      fileView(big, { id: 'f-ready', name: 'r.mov', lastModified: 5, status: 'ready' }),
      fileView(1000, { id: 'f-small', name: 's.txt', lastModified: 5 }),
    ];

    // Act
    const matches = matchResumableFiles(
      [
        picked('a.mov', big + 1, 5),
        picked('a.mov', big, 6),
        picked('a.mov', big, 5),
        picked('a.mov', big, 5),
        picked('r.mov', big, 5),
        picked('s.txt', 1000, 5),
      ],
      pending,
    );

    // Assess
    expect(matches.map((match) => match.resume?.id ?? null)).toEqual([null, null, 'f-1', null, null, null]);
  });

  it('builds the resumed file upload target from the shared part sizing rule', () => {
    // Prepare
    const file = fileView(big);

    // Act
    const { upload } = resumingUpload(file);

    // Assess
    expect(upload).toEqual({ method: 'multipart', partSize: partSizeFor(big), partCount: partCountFor(big) });
  });
});

describe('retry timing and S3 errors', () => {
  it('backs off exponentially with jitter between half and all of each step, capped at 15 s', () => {
    // Prepare
    const retries = [1, 2, 3, 4, 5, 6, 7];

    // Act
    const lowest = retries.map((retry) => backoffDelayMs(retry, undefined, () => 0));
    const highest = retries.map((retry) => backoffDelayMs(retry, undefined, () => 1));

    // Assess
    expect(highest).toEqual([500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000]);
    expect(lowest).toEqual([250, 500, 1_000, 2_000, 4_000, 7_500, 7_500]);
  });

  it("reads S3's error code and message from its XML, and nothing from an empty body", () => {
    // Prepare
    const xml = s3ErrorXml('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size');

    // Act
    const parsed = [parseS3Error(xml), parseS3Error('')];

    // Assess
    expect(parsed).toEqual([
      { code: 'EntityTooSmall', message: 'Your proposed upload is smaller than the minimum allowed size' },
      { code: undefined, message: undefined },
    ]);
  });
});

describe('upload progress (pure)', () => {
  it('counts parts in flight and done, caps a part at its size, and rolls back a failed one', () => {
    // Prepare
    const bytes = new SentBytes(250);

    // Act
    bytes.setPart(1, 100);
    bytes.setPart(2, 40, 100);
    bytes.setPart(3, 80, 50);
    const inFlight = bytes.sentBytes;
    bytes.resetPart(2);
    const rolledBack = bytes.sentBytes;
    bytes.setPart(2, 100, 100);

    // Assess
    expect([inFlight, rolledBack, bytes.sentBytes]).toEqual([190, 150, 250]);
  });

  it("scales a form's body progress to the file bytes it carries", () => {
    // Prepare
    const fileBytes = 1000;

    // Act
    const points = [
      scaledBytes(0, 1200, fileBytes),
      scaledBytes(600, 1200, fileBytes),
      scaledBytes(1300, 1200, fileBytes),
      scaledBytes(5, 0, fileBytes),
    ];

    // Assess
    expect(points).toEqual([0, 500, 1000, 0]);
  });

  it('sums the files of a transfer, and calls an empty transfer complete', () => {
    // Prepare
    const files = [
      { sentBytes: 50, totalBytes: 100 },
      { sentBytes: 300, totalBytes: 300 },
    ];

    // Act
    const sums = [sumProgress(files), sumProgress([])];

    // Assess
    expect(sums).toEqual([
      { sentBytes: 350, totalBytes: 400, fraction: 0.875 },
      { sentBytes: 0, totalBytes: 0, fraction: 1 },
    ]);
  });

  it('measures speed over the last five seconds only, and none from too short a history', () => {
    // Prepare: 1 MB/s for 10 s, then 3 MB/s for 5 s, a sample every 250 ms.
    let samples: ProgressSample[] = [];
    let sent = 0;
    const speeds: (number | undefined)[] = [];

    // Act
    for (let atMs = 0; atMs <= 15_000; atMs += 250) {
      if (atMs > 0) sent += atMs <= 10_000 ? 250_000 : 750_000;
      samples = addSample(samples, { atMs, sentBytes: sent });
      if (atMs === 250 || atMs === 10_000 || atMs === 15_000) speeds.push(bytesPerSecond(samples));
    }

    // Assess
    expect(speeds).toEqual([undefined, 1_000_000, 3_000_000]);
    expect(samples[0]?.atMs).toBe(10_000);
  });

  it('never reports a negative speed when a retry rolls bytes back', () => {
    // Prepare
    const samples = [
      { atMs: 0, sentBytes: 1000 },
      { atMs: 1000, sentBytes: 400 },
    ];

    // Act
    const speed = bytesPerSecond(samples);

    // Assess
    expect(speed).toBe(0);
  });

  it('tells the time left at the current speed, rounded up, and none while the speed is unknown or zero', () => {
    // Prepare
    const cases: [number, number | undefined][] = [
      [1_000_001, 1_000_000],
      [500, undefined],
      [500, 0],
      [0, undefined],
    ];

    // Act
    const left = cases.map(([remaining, speed]) => secondsLeft(remaining, speed));

    // Assess
    expect(left).toEqual([2, undefined, undefined, 0]);
  });

  it("follows a whole transfer's files: sum, speed and time left", () => {
    // Prepare
    const meter = new TransferProgressMeter();
    meter.update('a', { sentBytes: 0, totalBytes: 4_000_000 }, 0);
    meter.update('b', { sentBytes: 0, totalBytes: 2_000_000 }, 0);

    // Act
    meter.update('a', { sentBytes: 1_000_000, totalBytes: 4_000_000 }, 1_000);
    const now = meter.update('b', { sentBytes: 1_000_000, totalBytes: 2_000_000 }, 2_000);

    // Assess
    expect(now).toEqual({
      sentBytes: 2_000_000,
      totalBytes: 6_000_000,
      fraction: 1 / 3,
      bytesPerSecond: 1_000_000,
      secondsLeft: 4,
    });
  });
});
