import { PutRecordBatchCommand, type PutRecordBatchCommandOutput } from '@aws-sdk/client-firehose';
import type { StoredAnalyticsEvent } from '../../../shared/schemas/analytics';
import { getConfig } from '../../lib/config';
import { ServiceUnavailable } from '../../lib/errors';
import { analyticsFirehose } from './analytics-clients';

/** Where accepted events go: one NDJSON line each. */
export interface EventSink {
  put(events: readonly StoredAnalyticsEvent[]): Promise<void>;
}

/** Firehose's limits on one PutRecordBatch, and on one record (1,000 KiB; kept below it). */
const MAX_RECORDS_PER_CALL = 500;
const MAX_BYTES_PER_CALL = 4 * 1024 * 1024;
const MAX_RECORD_BYTES = 900 * 1024;
/** Attempts at the records Firehose reports failed (throttled or an internal error) before giving up. */
const MAX_ATTEMPTS = 3;
const RETRY_BASE_MS = 50;

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The events' NDJSON lines packed into as few records as fit: Firehose writes records into S3 as
 * they are, so the objects hold the same lines, and it bills each record by 5 KB steps, so one
 * record of 50 small lines costs a tenth of 50 records (and is one item to sign and send).
 */
export function packLines(lines: readonly string[]): Uint8Array[] {
  const records: Uint8Array[] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(line);
    if (current.length > 0 && bytes + size > MAX_RECORD_BYTES) {
      records.push(encoder.encode(current.join('')));
      current = [];
      bytes = 0;
    }
    current.push(line);
    bytes += size;
  }
  if (current.length > 0) records.push(encoder.encode(current.join('')));
  return records;
}

/** Splits records into calls Firehose accepts: at most 500 records and 4 MiB each. */
export function chunkRecords(records: readonly Uint8Array[]): Uint8Array[][] {
  const chunks: Uint8Array[][] = [];
  let current: Uint8Array[] = [];
  let bytes = 0;
  for (const record of records) {
    if (current.length > 0 && (current.length === MAX_RECORDS_PER_CALL || bytes + record.byteLength > MAX_BYTES_PER_CALL)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(record);
    bytes += record.byteLength;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** The records of a call that Firehose did not take (FailedPutCount > 0), in order. */
export function failedRecords(
  sent: readonly Uint8Array[],
  output: Pick<PutRecordBatchCommandOutput, 'FailedPutCount' | 'RequestResponses'>,
): Uint8Array[] {
  if (!output.FailedPutCount) return [];
  const responses = output.RequestResponses ?? [];
  return sent.filter((_, index) => responses[index]?.ErrorCode !== undefined);
}

/**
 * Events onto the Kinesis Data Firehose delivery stream, which buffers them into S3 objects by
 * arrival day (in AWS, Firehose itself; locally, the runtime's stand-in, which writes the same
 * NDJSON objects into the S3 emulator). Firehose can take part of a call: the records it
 * reports failed are sent again, and if some still fail the call answers 503 so that the
 * browser sends the whole batch again; what was already stored is then stored twice, which the
 * figures do not see (every figure counts an event id once).
 */
export function firehoseSink(): EventSink {
  const streamName = getConfig().analytics.deliveryStreamName;
  const client = analyticsFirehose();
  return {
    async put(events) {
      const records = packLines(events.map((event) => `${JSON.stringify(event)}\n`));
      for (const chunk of chunkRecords(records)) {
        let pending = chunk;
        for (let attempt = 1; pending.length > 0; attempt += 1) {
          if (attempt > MAX_ATTEMPTS) {
            throw new ServiceUnavailable(`The analytics stream refused ${pending.length} events; send them again.`);
          }
          if (attempt > 1) await sleep(RETRY_BASE_MS * 2 ** (attempt - 2));
          const output = await client.send(
            new PutRecordBatchCommand({ DeliveryStreamName: streamName, Records: pending.map((Data) => ({ Data })) }),
          );
          pending = failedRecords(pending, output);
        }
      }
    },
  };
}
