/** What the local runtime stored of the product analytics events: the NDJSON objects in its S3 emulator. */
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { StoredAnalyticsEvent } from '../../shared/schemas/analytics';
import { LOCAL_S3_CREDENTIALS } from '../../infra/local/s3-local';
import type { LocalRuntime } from '../../infra/local/runtime';

/**
 * Every event stored so far, oldest object first: the Firehose stand-in's buffer is written out
 * first, so an event the endpoint accepted is in the answer.
 */
export async function storedAnalyticsEvents(
  runtime: Pick<LocalRuntime, 's3Endpoint' | 'analytics'>,
): Promise<StoredAnalyticsEvent[]> {
  await runtime.analytics.flush();
  const s3 = new S3Client({
    endpoint: runtime.s3Endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: LOCAL_S3_CREDENTIALS,
  });
  try {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({ Bucket: runtime.analytics.bucket, Prefix: 'events/', ContinuationToken: token }),
      );
      keys.push(...(page.Contents ?? []).map((object) => object.Key ?? '').filter(Boolean));
      token = page.NextContinuationToken;
    } while (token);
    const events: StoredAnalyticsEvent[] = [];
    for (const key of keys.sort()) {
      const object = await s3.send(new GetObjectCommand({ Bucket: runtime.analytics.bucket, Key: key }));
      const text = (await object.Body?.transformToString()) ?? '';
      for (const line of text.split('\n')) if (line.trim()) events.push(JSON.parse(line) as StoredAnalyticsEvent);
    }
    return events;
  } finally {
    s3.destroy();
  }
}
