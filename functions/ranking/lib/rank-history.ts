import { writeBatch, getBatch } from '../../lib/db/batches';
import type { BoardRanks, MonthOfRanks, RankHistoryItem } from '../../lib/db/entities/rank-history';
import type { Db } from '../../lib/db/service';
import { addDays, type Day } from './domain/days';
import {
  decodeMonth,
  encodeMonth,
  HISTORY_DAYS,
  monthOf,
  monthOfSlug,
  RANK_HISTORY_BUCKETS,
  rankHistoryExpiry,
} from './domain/rank-history';
import { bucketOf } from './domain/shard';

/** Buckets read, updated and written together: bounded memory, and well under BatchGet's 16 MB. */
const BUCKET_GROUP = 64;
const WRITE_CONCURRENCY = 4;

/**
 * Records `day`'s ranks of every publication: each bucket's item for the month is read,
 * given the day, and written back. Every run rewrites the day, so a day keeps the ranks of
 * its last run, and the publication page's current ranks always match the boards. Only the
 * ranking job writes these items, one run at a time.
 */
export async function recordRankDay(
  db: Db,
  input: { ranksBySlug: ReadonlyMap<string, BoardRanks>; day: Day; runId: string },
): Promise<{ buckets: number }> {
  const month = monthOf(input.day);
  const dayOfMonth = input.day.slice(8, 10);
  const byBucket = new Map<number, [string, BoardRanks][]>();
  for (const entry of input.ranksBySlug) {
    const bucket = bucketOf(entry[0], RANK_HISTORY_BUCKETS);
    const entries = byBucket.get(bucket);
    if (entries) entries.push(entry);
    else byBucket.set(bucket, [entry]);
  }
  const buckets = [...byBucket.keys()];
  for (let start = 0; start < buckets.length; start += BUCKET_GROUP) {
    const group = buckets.slice(start, start + BUCKET_GROUP);
    const existing = await getBatch({
      keys: group.map((bucket) => ({ bucket, month })),
      send: (keys) => db.entities.rankHistory.get(keys).go({ consistent: true }),
      what: `rank history buckets of ${month}`,
    });
    const stored = new Map(existing.map((item) => [item.bucket, item.payload]));
    const items: RankHistoryItem[] = group.map((bucket) => {
      const payload = stored.get(bucket);
      const ranks: MonthOfRanks = payload ? decodeMonth(payload) : {};
      for (const [slug, boardRanks] of byBucket.get(bucket) ?? []) ranks[slug] = { ...ranks[slug], [dayOfMonth]: boardRanks };
      return { bucket, month, payload: encodeMonth(ranks), runId: input.runId, expiresAt: rankHistoryExpiry(month) };
    });
    await writeBatch({
      items,
      send: (pending) => db.entities.rankHistory.put(pending).go({ concurrent: WRITE_CONCURRENCY }),
      keyOf: (key) => `${key.bucket}#${key.month}`,
      what: `rank history buckets of ${month}`,
    });
  }
  return { buckets: buckets.length };
}

/** One publication's daily ranks from `since` to `until`, oldest first: one Query of at most four items. */
export async function readRankHistory(
  db: Db,
  input: { slug: string; since: Day; until: Day },
): Promise<{ day: Day; ranks: BoardRanks }[]> {
  const { data } = await db.entities.rankHistory.query
    .byBucketAndMonth({ bucket: bucketOf(input.slug, RANK_HISTORY_BUCKETS) })
    .between({ month: monthOf(input.since) }, { month: monthOf(input.until) })
    .go({ pages: 'all' });
  return data
    .flatMap((item) =>
      Object.entries(monthOfSlug(item.payload, input.slug) ?? {}).map(([dd, ranks]) => ({ day: `${item.month}-${dd}`, ranks })),
    )
    .filter(({ day }) => day >= input.since && day <= input.until)
    .sort((a, b) => (a.day < b.day ? -1 : 1));
}

/** The first day of the history a chart of HISTORY_DAYS ending `today` shows. */
export function historyStart(today: Day): Day {
  return addDays(today, -(HISTORY_DAYS - 1));
}
