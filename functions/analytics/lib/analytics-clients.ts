import { Agent } from 'node:http';
import { FirehoseClient } from '@aws-sdk/client-firehose';
import type { S3Client } from '@aws-sdk/client-s3';
import { boundedRequestHandler } from '../../lib/aws-request-handler';
import { getConfig } from '../../lib/config';
import type * as AnalyticsS3Sdk from './analytics-s3-sdk';

/**
 * The SDK clients of product analytics, made once per function instance: Firehose (the delivery
 * stream events are put on) and S3 (the events bucket and its daily aggregates). Locally both
 * point at the runtime's emulators, which the configuration names.
 */
type ClientSetup = (clients: { s3?: S3Client; firehose?: FirehoseClient }) => void;

let s3Client: S3Client | undefined;
let firehoseClient: FirehoseClient | undefined;
const setups: ClientSetup[] = [];

/**
 * Runs `setup` on each analytics client once it exists: the local runtime adds IAM's checks of
 * the calling function's analytics grant this way, as it does on the table's client.
 */
export function onAnalyticsClients(setup: ClientSetup): void {
  setups.push(setup);
  if (s3Client) setup({ s3: s3Client });
  if (firehoseClient) setup({ firehose: firehoseClient });
}

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** The events bucket's client, with the parts of the SDK that use it (loaded on first use: analytics-s3-sdk.ts). */
export async function analyticsS3(): Promise<{ client: S3Client } & typeof AnalyticsS3Sdk> {
  const sdk = await import('./analytics-s3-sdk');
  if (!s3Client) {
    const config = getConfig();
    const endpoint = config.analytics.s3Endpoint;
    s3Client = new sdk.S3Client({
      region: config.region,
      ...(endpoint ? { endpoint, forcePathStyle: true, credentials: LOCAL_CREDENTIALS } : {}),
      maxAttempts: 3,
      requestHandler: boundedRequestHandler(20_000),
    });
    for (const setup of setups) setup({ s3: s3Client });
  }
  return { client: s3Client, ...sdk };
}

export function analyticsFirehose(): FirehoseClient {
  if (!firehoseClient) {
    const config = getConfig();
    const endpoint = config.analytics.firehoseEndpoint;
    firehoseClient = new FirehoseClient({
      region: config.region,
      ...(endpoint ? { endpoint, credentials: LOCAL_CREDENTIALS } : {}),
      // The sink retries what Firehose refuses itself; the SDK retries only throttling and faults.
      maxAttempts: 2,
      // Locally the stream is plain HTTP: keep the sockets of a busy batch sender open.
      requestHandler: boundedRequestHandler(5_000, { httpAgent: new Agent({ keepAlive: true, maxSockets: 64 }) }),
    });
    for (const setup of setups) setup({ firehose: firehoseClient });
  }
  return firehoseClient;
}
