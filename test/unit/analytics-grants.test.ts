import { FirehoseClient, PutRecordBatchCommand } from '@aws-sdk/client-firehose';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { runAsFunction } from '../../functions/lib/function-environment';
import { enforceAnalyticsGrants } from '../../infra/local/grants';
import { type AnalyticsAccess, capabilitiesOf } from '../../shared/capabilities';

// Nothing listens on the discard port: a call the grant lets through fails at the network instead.
const options = {
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:9',
  maxAttempts: 1,
  credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
};
const s3 = new S3Client({ ...options, forcePathStyle: true });
const firehose = new FirehoseClient(options);
enforceAnalyticsGrants({ s3, firehose });

/** 'denied' when the local grant check refuses the call, 'allowed' when it reached the network. */
async function outcome(access: AnalyticsAccess, call: () => Promise<unknown>): Promise<'denied' | 'allowed'> {
  const scope = { name: `fn-${access}`, env: {}, capabilities: capabilitiesOf({ analytics: access }, { table: 'read' }) };
  const error = (await runAsFunction(scope, call).catch((caught: unknown) => caught)) as { name?: string; message?: string };
  if (error?.name === 'AccessDenied' || error?.name === 'AccessDeniedException') {
    expect(error.message).toContain(`assumed-role/fn-${access}/local`);
    return 'denied';
  }
  return 'allowed';
}

const calls = {
  putRecords: () => firehose.send(new PutRecordBatchCommand({ DeliveryStreamName: 's', Records: [{ Data: new Uint8Array(1) }] })),
  getEvents: () => s3.send(new GetObjectCommand({ Bucket: 'b', Key: 'events/dt=2026-11-27/x.ndjson' })),
  getAggregate: () => s3.send(new GetObjectCommand({ Bucket: 'b', Key: 'aggregates/day=2026-11-27.json' })),
  list: () => s3.send(new ListObjectsV2Command({ Bucket: 'b', Prefix: 'events/' })),
  putAggregate: () => s3.send(new PutObjectCommand({ Bucket: 'b', Key: 'aggregates/day=2026-11-27.json', Body: '{}' })),
  putEvents: () => s3.send(new PutObjectCommand({ Bucket: 'b', Key: 'events/dt=2026-11-27/forged.ndjson', Body: '{}' })),
};

describe('analytics grants, enforced locally as IAM enforces them in AWS', () => {
  it.each<[AnalyticsAccess, Record<keyof typeof calls, 'denied' | 'allowed'>]>([
    [
      'none',
      {
        putRecords: 'denied',
        getEvents: 'denied',
        getAggregate: 'denied',
        list: 'denied',
        putAggregate: 'denied',
        putEvents: 'denied',
      },
    ],
    [
      'put',
      {
        putRecords: 'allowed',
        getEvents: 'denied',
        getAggregate: 'denied',
        list: 'denied',
        putAggregate: 'denied',
        putEvents: 'denied',
      },
    ],
    [
      'read',
      {
        putRecords: 'denied',
        getEvents: 'denied',
        getAggregate: 'allowed',
        list: 'denied',
        putAggregate: 'denied',
        putEvents: 'denied',
      },
    ],
    [
      'aggregate',
      {
        putRecords: 'denied',
        getEvents: 'allowed',
        getAggregate: 'allowed',
        list: 'allowed',
        putAggregate: 'allowed',
        putEvents: 'denied',
      },
    ],
  ])("a function with analytics '%s'", async (access, expected) => {
    // Act
    const outcomes: Record<string, string> = {};
    for (const [name, call] of Object.entries(calls)) outcomes[name] = await outcome(access, call);

    // Assess
    expect(outcomes).toEqual(expected);
  });
});
