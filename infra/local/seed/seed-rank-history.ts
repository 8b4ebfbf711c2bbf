import { getBatch, writeBatch } from '../../../functions/lib/db/batches';
import type { DailyCounts } from '../../../functions/lib/db/entities/follower-history';
import type { MonthOfRanks, RankHistoryItem } from '../../../functions/lib/db/entities/rank-history';
import type { Db } from '../../../functions/lib/db/service';
import { rankBoards } from '../../../functions/ranking/lib/domain/boards';
import { addDays, type Day } from '../../../functions/ranking/lib/domain/days';
import {
  boardRanksBySlug,
  decodeMonth,
  encodeMonth,
  HISTORY_DAYS,
  monthOf,
  RANK_HISTORY_BUCKETS,
  rankHistoryExpiry,
} from '../../../functions/ranking/lib/domain/rank-history';
import { NOT_OBSERVED } from '../../../functions/ranking/lib/domain/recent-counts';
import { bucketOf } from '../../../functions/ranking/lib/domain/shard';
import { computeStanding } from '../../../functions/ranking/lib/domain/standing';
import { RECENT_HISTORY_DAYS } from '../../../shared/constants';
import type { SeedData } from './generate-publications';

/**
 * The demo's rank history: each of the HISTORY_DAYS - 1 days before `today` ranked as the job
 * would have ranked it from the generated follower history, so a publication page of the demo
 * has a rank chart as a deployment has after three months. Today's ranks come from the job's
 * own run; days already stored are kept.
 */
export async function seedRankHistory(db: Db, data: Pick<SeedData, 'publications' | 'histories'>, today: Day): Promise<number> {
  const firstDay = addDays(today, -(HISTORY_DAYS - 1));
  const windowStart = addDays(firstDay, -(RECENT_HISTORY_DAYS - 1));
  const countsBySlug = new Map<string, DailyCounts>();
  for (const history of data.histories) {
    const counts = countsBySlug.get(history.slug) ?? {};
    for (const [monthDay, followers] of Object.entries(history.days as DailyCounts))
      counts[`${history.year}-${monthDay}`] = followers;
    countsBySlug.set(history.slug, counts);
  }
  const days: Day[] = [];
  for (let day = windowStart; day < today; day = addDays(day, 1)) days.push(day);
  const series = data.publications.map((publication) => {
    const counts = countsBySlug.get(publication.slug) ?? {};
    return { publication, counts: days.map((day) => counts[day] ?? NOT_OBSERVED) };
  });

  // JSON fragments '"DD":{slug: ranks, ...}' per bucket and month, joined once at the end.
  const fragments = new Map<string, string[]>();
  for (let index = RECENT_HISTORY_DAYS - 1; index < days.length; index += 1) {
    const day = days[index] as Day;
    const standings = series.flatMap(({ publication, counts }) => {
      const recentCounts = counts.slice(index - RECENT_HISTORY_DAYS + 1, index + 1);
      const followers = recentCounts.findLast((count) => count !== NOT_OBSERVED);
      // Not seen yet on that day: it was on no board.
      return followers === undefined
        ? []
        : [computeStanding({ ...publication, followers, recentEndDay: day, recentCounts }, day)];
    });
    const byBucket = new Map<number, Record<string, unknown>>();
    for (const [slug, ranks] of boardRanksBySlug(rankBoards(standings).boards)) {
      const bucket = bucketOf(slug, RANK_HISTORY_BUCKETS);
      const ofBucket = byBucket.get(bucket) ?? {};
      ofBucket[slug] = ranks;
      byBucket.set(bucket, ofBucket);
    }
    for (const [bucket, ranks] of byBucket) {
      const key = `${bucket}|${monthOf(day)}`;
      const list = fragments.get(key) ?? [];
      list.push(`${JSON.stringify(day.slice(8, 10))}:${JSON.stringify(ranks)}`);
      fragments.set(key, list);
    }
  }

  const keys = [...fragments.keys()].map((key) => {
    const [bucket, month] = key.split('|') as [string, string];
    return { bucket: Number(bucket), month };
  });
  const stored = await getBatch({
    keys,
    send: (pending) => db.entities.rankHistory.get(pending).go({ consistent: true }),
    what: 'rank history buckets',
  });
  const storedPayloads = new Map(stored.map((item) => [`${item.bucket}|${item.month}`, item.payload]));
  const items: RankHistoryItem[] = keys.map(({ bucket, month }) => {
    const key = `${bucket}|${month}`;
    const seeded = JSON.parse(`{${(fragments.get(key) ?? []).join(',')}}`) as Record<string, unknown>;
    const existing = storedPayloads.get(key);
    const merged = { ...seeded, ...(existing ? decodeMonth(existing) : {}) } as MonthOfRanks;
    return { bucket, month, payload: encodeMonth(merged), runId: 'demo-seed', expiresAt: rankHistoryExpiry(month) };
  });
  await writeBatch({
    items,
    send: (pending) => db.entities.rankHistory.put(pending).go({ concurrent: 4 }),
    keyOf: (key) => `${key.bucket}#${key.month}`,
    what: 'rank history buckets',
  });
  return days.length - RECENT_HISTORY_DAYS + 1;
}
