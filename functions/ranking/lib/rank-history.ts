import { writeBatch, getBatch } from '../../lib/db/batches';
import type { BoardRanks, RankHistoryItem } from '../../lib/db/entities/rank-history';
import type { Db } from '../../lib/db/service';
import { groupsOf } from '../../lib/in-groups';
import { addDays, type Day } from './domain/days';
import {
  HISTORY_DAYS,
  monthOf,
  monthOfSlug,
  RANK_HISTORY_BUCKET_GROUP,
  RANK_HISTORY_BUCKETS,
  rankHistoryExpiry,
  withDayOfRanks,
} from './domain/rank-history';
import { bucketOf } from './domain/shard';

const WRITE_CONCURRENCY = 4;

/** A run's ranks, asked for a group of publications at a time (boardRanksOf in domain/rank-history.ts). */
export interface RunRanks {
  /** Every publication of the run, by position. */
  slugs: readonly string[];
  ranksOf: (chosen: (index: number) => boolean) => Map<number, BoardRanks>;
}

/**
 * Records `day`'s ranks of every publication: each bucket's item for the month is read,
 * given the day, and written back. Every run rewrites the day, so a day keeps the ranks of
 * its last run, and the publication page's current ranks always match the boards. Only the
 * ranking job writes these items, one run at a time. The ranks of one group of buckets are
 * worked out at a time: at 200,000 publications all of them at once took some 200 MB.
 */
export async function recordRankDay(db: Db, input: { ranks: RunRanks; day: Day; runId: string }): Promise<{ buckets: number }> {
  const month = monthOf(input.day);
  const dayOfMonth = input.day.slice(8, 10);
  const { slugs } = input.ranks;
  const bucketOfIndex = Uint16Array.from(slugs, (slug) => bucketOf(slug, RANK_HISTORY_BUCKETS));
  const buckets = [...new Set(bucketOfIndex)].sort((a, b) => a - b);
  const inGroup = new Uint8Array(RANK_HISTORY_BUCKETS);
  for (const group of groupsOf(buckets, RANK_HISTORY_BUCKET_GROUP)) {
    inGroup.fill(0);
    for (const bucket of group) inGroup[bucket] = 1;
    const byBucket = new Map<number, [string, BoardRanks][]>();
    for (const [index, boardRanks] of input.ranks.ranksOf((index) => inGroup[bucketOfIndex[index] as number] === 1)) {
      const bucket = bucketOfIndex[index] as number;
      const entry: [string, BoardRanks] = [slugs[index] as string, boardRanks];
      const entries = byBucket.get(bucket);
      if (entries) entries.push(entry);
      else byBucket.set(bucket, [entry]);
    }
    const existing = await getBatch({
      keys: group.map((bucket) => ({ bucket, month })),
      send: (keys) => db.entities.rankHistory.get(keys).go({ consistent: true }),
      what: `rank history buckets of ${month}`,
    });
    const stored = new Map(existing.map((item) => [item.bucket, item.payload]));
    const items: RankHistoryItem[] = group.map((bucket) => ({
      bucket,
      month,
      payload: withDayOfRanks(stored.get(bucket), dayOfMonth, byBucket.get(bucket) ?? []),
      runId: input.runId,
      expiresAt: rankHistoryExpiry(month),
    }));
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
