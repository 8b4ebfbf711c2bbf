import { getBatch, writeBatch } from '../../../functions/lib/db/batches';
import type { DailyCounts } from '../../../functions/lib/db/entities/follower-history';
import type { MonthOfRanks, RankHistoryItem } from '../../../functions/lib/db/entities/rank-history';
import type { Db } from '../../../functions/lib/db/service';
import { rankColumns } from '../../../functions/ranking/lib/domain/boards';
import { addDays, type Day } from '../../../functions/ranking/lib/domain/days';
import {
  boardRanksOf,
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
import { StandingColumns } from '../../../functions/ranking/lib/domain/standing-columns';
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

  // Month by month, so only one month of every publication's ranks is held at once.
  let written = 0;
  for (const month of [...new Set(days.slice(RECENT_HISTORY_DAYS - 1).map(monthOf))]) {
    const byBucket = new Map<number, MonthOfRanks>();
    days.forEach((day, index) => {
      if (index < RECENT_HISTORY_DAYS - 1 || monthOf(day) !== month) return;
      const standings = series.flatMap(({ publication, counts }) => {
        const recentCounts = counts.slice(index - RECENT_HISTORY_DAYS + 1, index + 1);
        const followers = recentCounts.findLast((count) => count !== NOT_OBSERVED);
        // Not seen yet on that day: it was on no board.
        return followers === undefined
          ? []
          : [computeStanding({ ...publication, followers, recentEndDay: day, recentCounts }, day)];
      });
      const columns = StandingColumns.of(standings);
      for (const [index, ranks] of boardRanksOf(rankColumns(columns).boards, columns.followersKnown, () => true)) {
        const slug = columns.slugs[index] as string;
        const bucket = bucketOf(slug, RANK_HISTORY_BUCKETS);
        const ofBucket = byBucket.get(bucket) ?? {};
        ofBucket[slug] = { ...ofBucket[slug], [day.slice(8, 10)]: ranks };
        byBucket.set(bucket, ofBucket);
      }
      written += 1;
    });
    const keys = [...byBucket.keys()].map((bucket) => ({ bucket, month }));
    const stored = await getBatch({
      keys,
      send: (pending) => db.entities.rankHistory.get(pending).go({ consistent: true }),
      what: 'rank history buckets',
    });
    const storedPayloads = new Map(stored.map((item) => [item.bucket, item.payload]));
    const items: RankHistoryItem[] = keys.map(({ bucket }) => {
      const merged = byBucket.get(bucket) ?? {};
      const existing = storedPayloads.get(bucket);
      // Days the job already recorded (today's run) win over the replay.
      for (const [slug, ranks] of Object.entries(existing ? decodeMonth(existing) : {}))
        merged[slug] = { ...merged[slug], ...ranks };
      return { bucket, month, payload: encodeMonth(merged), runId: 'demo-seed', expiresAt: rankHistoryExpiry(month) };
    });
    await writeBatch({
      items,
      send: (pending) => db.entities.rankHistory.put(pending).go({ concurrent: 4 }),
      keyOf: (key) => `${key.bucket}#${key.month}`,
      what: 'rank history buckets',
    });
  }
  return written;
}
