import { gunzipSync } from 'node:zlib';
import type { StoredAnalyticsEvent } from '../../../shared/schemas/analytics';
import { getConfig } from '../../lib/config';
import { logger } from '../../lib/logger';
import { analyticsS3 } from './analytics-clients';
import { type DailyAggregate, isDateTime } from './daily-aggregate';

/**
 * The events bucket's layout: `events/dt=YYYY-MM-DD/` holds what arrived that UTC day (Firehose's
 * objects, gzip in AWS, plain NDJSON locally), `aggregates/day=YYYY-MM-DD.json` each day's figures.
 */
export const eventsPrefix = (arrivalDay: string) => `events/dt=${arrivalDay}/`;
export const aggregateKey = (day: string) => `aggregates/day=${day}.json`;

const bucket = () => getConfig().analytics.bucketName;

async function listKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  const { client, ListObjectsV2Command } = await analyticsS3();
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: prefix, ContinuationToken: token }));
    for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

async function readObject(key: string): Promise<Buffer | undefined> {
  const { client, GetObjectCommand, NoSuchKey } = await analyticsS3();
  try {
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
    return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : undefined;
  } catch (error) {
    if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

const isGzip = (bytes: Buffer) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/** Each stored line that parses, from an object's text; a broken line is skipped and counted. */
/**
 * A stored line the figures can count: its ids, a time a date can hold (an event stored before
 * ingestion checked times may say 1e300) and its properties. One that is not is skipped and
 * counted, never a reason to fail the day.
 */
function isReadableEvent(event: unknown): event is StoredAnalyticsEvent {
  if (event === null || typeof event !== 'object') return false;
  const { insert_id, distinct_id, time, props } = event as Record<string, unknown>;
  return (
    typeof insert_id === 'string' &&
    typeof distinct_id === 'string' &&
    isDateTime(time) &&
    props !== null &&
    typeof props === 'object' &&
    !Array.isArray(props)
  );
}

export function parseEventLines(text: string): { events: StoredAnalyticsEvent[]; broken: number } {
  const events: StoredAnalyticsEvent[] = [];
  let broken = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const event = JSON.parse(line) as StoredAnalyticsEvent;
      if (isReadableEvent(event)) events.push(event);
      else broken += 1;
    } catch {
      broken += 1;
    }
  }
  return { events, broken };
}

/** Every event that arrived on the given UTC days. */
export async function readArrivedEvents(arrivalDays: readonly string[]): Promise<StoredAnalyticsEvent[]> {
  const keys = (await Promise.all(arrivalDays.map((day) => listKeys(eventsPrefix(day))))).flat();
  const events: StoredAnalyticsEvent[] = [];
  let broken = 0;
  // A few objects at a time: a day of Firehose objects can be many, each small.
  for (let index = 0; index < keys.length; index += 16) {
    const bodies = await Promise.all(keys.slice(index, index + 16).map(readObject));
    for (const body of bodies) {
      if (!body) continue;
      const parsed = parseEventLines((isGzip(body) ? gunzipSync(body) : body).toString('utf8'));
      events.push(...parsed.events);
      broken += parsed.broken;
    }
  }
  if (broken > 0) logger.warn('Skipped unreadable analytics lines', { broken });
  return events;
}

export async function writeAggregate(aggregate: DailyAggregate): Promise<void> {
  const { client, PutObjectCommand } = await analyticsS3();
  await client.send(
    new PutObjectCommand({
      Bucket: bucket(),
      Key: aggregateKey(aggregate.date),
      Body: JSON.stringify(aggregate),
      ContentType: 'application/json',
    }),
  );
}

export async function readAggregate(day: string): Promise<DailyAggregate | undefined> {
  const body = await readObject(aggregateKey(day));
  return body ? (JSON.parse(body.toString('utf8')) as DailyAggregate) : undefined;
}
