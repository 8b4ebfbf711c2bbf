import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as S3Sdk from '@aws-sdk/client-s3';
import { LocalServiceError } from './dynamodb-local';
import { LOCAL_S3_CREDENTIALS } from './s3-local';

/**
 * Kinesis Data Firehose, locally: the PutRecordBatch and PutRecord calls of the SDK (its JSON
 * protocol, on a loopback port of its own), each stream buffering what it is given and writing
 * it, as it came, into an S3 object under its prefix for the UTC day of arrival
 * (`events/dt=YYYY-MM-DD/`), as the cloud stream does with `!{timestamp:yyyy-MM-dd}`. Objects are
 * plain NDJSON here (no GZIP), every second or every 5 MiB, whichever comes first, and what is
 * buffered is written before the runtime stops. Firehose's limits are kept: 500 records and
 * 4 MiB a call, 1,000 KiB a record.
 */
export interface LocalDeliveryStream {
  name: string;
  bucket: string;
  /** The object prefix for a UTC arrival day ('YYYY-MM-DD'). */
  prefix: (arrivalDay: string) => string;
}

const MAX_RECORDS_PER_CALL = 500;
const MAX_BYTES_PER_CALL = 4 * 1024 * 1024;
const MAX_RECORD_BYTES = 1000 * 1024;
const BUFFER_BYTES = 5 * 1024 * 1024;
const TARGET_PREFIX = 'Firehose_20150804.';

class FirehoseError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

interface Buffered {
  chunks: Buffer[];
  bytes: number;
}

export interface LocalFirehose {
  endpoint: string;
  /** Writes everything buffered now (tests read the bucket right after). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

const twoDigits = (value: number) => String(value).padStart(2, '0');
function objectStamp(date: Date): string {
  return `${date.getUTCFullYear()}-${twoDigits(date.getUTCMonth() + 1)}-${twoDigits(date.getUTCDate())}-${twoDigits(date.getUTCHours())}-${twoDigits(date.getUTCMinutes())}-${twoDigits(date.getUTCSeconds())}`;
}

export async function startLocalFirehose(options: {
  streams: readonly LocalDeliveryStream[];
  s3Endpoint: string;
  flushIntervalMs?: number;
  log?: (line: string) => void;
}): Promise<LocalFirehose> {
  const log = options.log ?? (() => undefined);
  const streams = new Map(options.streams.map((stream) => [stream.name, stream]));
  // Per stream, then per object prefix (arrival day).
  const buffers = new Map<string, Map<string, Buffered>>();
  // S3's client is loaded and made for the first batch written, not when the runtime is imported:
  // it is a tenth of a second or more of every test file's fork and every `npm start`, most of
  // which put no analytics event. A failed load is tried again on the next write.
  let sdk: Promise<typeof S3Sdk> | undefined;
  let s3: S3Sdk.S3Client | undefined;
  const bucketClient = async () => {
    sdk ??= import('@aws-sdk/client-s3').catch((error: unknown) => {
      sdk = undefined;
      throw error;
    });
    const loaded = await sdk;
    s3 ??= new loaded.S3Client({
      region: 'us-east-1',
      endpoint: options.s3Endpoint,
      forcePathStyle: true,
      credentials: LOCAL_S3_CREDENTIALS,
    });
    return { client: s3, PutObjectCommand: loaded.PutObjectCommand };
  };
  let flushing: Promise<void> = Promise.resolve();

  const writeOut = async (): Promise<void> => {
    const now = new Date();
    for (const [streamName, prefixes] of buffers) {
      const stream = streams.get(streamName) as LocalDeliveryStream;
      for (const [prefix, buffered] of prefixes) {
        if (buffered.bytes === 0) continue;
        prefixes.delete(prefix);
        const key = `${prefix}${stream.name}-1-${objectStamp(now)}-${randomUUID()}.ndjson`;
        try {
          const { client, PutObjectCommand } = await bucketClient();
          await client.send(new PutObjectCommand({ Bucket: stream.bucket, Key: key, Body: Buffer.concat(buffered.chunks) }));
        } catch (error) {
          // Firehose retries delivery; so does this: the records go back at the front of the buffer.
          const again = prefixes.get(prefix) ?? { chunks: [], bytes: 0 };
          prefixes.set(prefix, { chunks: [...buffered.chunks, ...again.chunks], bytes: buffered.bytes + again.bytes });
          log(`Firehose stand-in could not write ${key}: ${(error as Error).message}; retrying`);
        }
      }
    }
  };
  const flush = (): Promise<void> => {
    flushing = flushing.then(writeOut, writeOut);
    return flushing;
  };

  const accept = (streamName: string, records: Buffer[]): void => {
    const day = new Date().toISOString().slice(0, 10);
    const stream = streams.get(streamName) as LocalDeliveryStream;
    const prefixes = buffers.get(streamName) ?? new Map<string, Buffered>();
    buffers.set(streamName, prefixes);
    const prefix = stream.prefix(day);
    const buffered = prefixes.get(prefix) ?? { chunks: [], bytes: 0 };
    prefixes.set(prefix, buffered);
    for (const record of records) {
      buffered.chunks.push(record);
      buffered.bytes += record.byteLength;
    }
    if (buffered.bytes >= BUFFER_BYTES) void flush();
  };

  const decodeRecords = (input: unknown): Buffer[] => {
    if (!Array.isArray(input)) throw new FirehoseError('ValidationException', 'Records is required');
    return input.map((record: { Data?: unknown }) => {
      if (typeof record?.Data !== 'string') throw new FirehoseError('ValidationException', 'Every record needs Data');
      const data = Buffer.from(record.Data, 'base64');
      if (data.byteLength > MAX_RECORD_BYTES) {
        throw new FirehoseError('ValidationException', `A record is larger than ${MAX_RECORD_BYTES} bytes`);
      }
      return data;
    });
  };

  const handle = (target: string, body: Record<string, unknown>): unknown => {
    const streamName = body.DeliveryStreamName;
    if (typeof streamName !== 'string' || !streams.has(streamName)) {
      throw new FirehoseError('ResourceNotFoundException', `Delivery stream ${String(streamName)} not found`);
    }
    if (target === 'PutRecord') {
      const [record] = decodeRecords([body.Record]);
      accept(streamName, [record as Buffer]);
      return { RecordId: randomUUID(), Encrypted: false };
    }
    if (target === 'PutRecordBatch') {
      const records = decodeRecords(body.Records);
      if (records.length === 0 || records.length > MAX_RECORDS_PER_CALL) {
        throw new FirehoseError('ValidationException', `Records must hold 1 to ${MAX_RECORDS_PER_CALL} records`);
      }
      if (records.reduce((sum, record) => sum + record.byteLength, 0) > MAX_BYTES_PER_CALL) {
        throw new FirehoseError('InvalidArgumentException', 'A PutRecordBatch call is limited to 4 MiB');
      }
      accept(streamName, records);
      return { FailedPutCount: 0, Encrypted: false, RequestResponses: records.map(() => ({ RecordId: randomUUID() })) };
    }
    throw new FirehoseError('UnknownOperationException', `${target} is not emulated locally`);
  };

  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID() });
    response.end(JSON.stringify(body));
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const target = String(request.headers['x-amz-target'] ?? '');
      try {
        if (request.method !== 'POST' || !target.startsWith(TARGET_PREFIX)) {
          throw new FirehoseError('UnknownOperationException', 'Not a Firehose call');
        }
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          throw new FirehoseError('SerializationException', 'The body is not JSON');
        }
        answer(response, 200, handle(target.slice(TARGET_PREFIX.length), (body ?? {}) as Record<string, unknown>));
      } catch (error) {
        if (error instanceof FirehoseError) answer(response, 400, { __type: error.type, message: error.message });
        else answer(response, 500, { __type: 'ServiceUnavailableException', message: (error as Error).message });
      }
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(new LocalServiceError('Firehose stand-in', `could not start: ${error.message}`, { cause: error })),
    );
    server.listen(0, '127.0.0.1', resolve);
  });
  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? 1_000);
  timer.unref();
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    flush,
    stop: async () => {
      clearInterval(timer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await flush();
      s3?.destroy();
    },
  };
}
