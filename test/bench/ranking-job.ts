/**
 * Benchmark: the ranking job over the 17,000-publication seed on an on-disk DynamoDB Local.
 * `seed` fills DATA_DIR; `run` (a fresh process, so its peak memory is the job's own) times
 * one full recompute of every board and the in-memory ranking alone. Prints one JSON line.
 * `seed` takes PUBLICATIONS (17,000 unless set) and SEED_HISTORIES=none for the job-scale
 * section, which needs no follower history: the job never reads it, and it doubles the seeding.
 * SEED_RANK_MONTH=full fills each rank history bucket with every day of this month, as the job
 * finds it on the month's last day: its largest reads and writes, and its most memory.
 */
import { join } from 'node:path';
import { createDocumentClient } from '../../functions/lib/db/client';
import { createDb } from '../../functions/lib/db/service';
import { writeBatch } from '../../functions/lib/db/batches';
import type { PublicationItem } from '../../functions/lib/db/entities/publication';
import type { DaysOfRanks, MonthOfRanks, RankHistoryItem } from '../../functions/lib/db/entities/rank-history';
import type { Db } from '../../functions/lib/db/service';
import { type Day, toDay } from '../../functions/ranking/lib/domain/days';
import {
  boardRanksOf,
  encodeMonth,
  monthOf,
  RANK_HISTORY_BUCKETS,
  rankHistoryExpiry,
} from '../../functions/ranking/lib/domain/rank-history';
import { bucketOf } from '../../functions/ranking/lib/domain/shard';
import { rankPublications, readAllPublications, runRanking } from '../../functions/ranking/lib/ranking-run';
import { ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { LOCAL_TABLE_NAME } from '../../infra/local/runtime';
import { generateSeedData } from '../../infra/local/seed/generate-publications';
import { seedTable } from '../../infra/local/seed/seed-table';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/**
 * Every day of `today`'s month for every publication, from today's ranks moved by up to 2.5% a
 * day: sizes like a real month's, which identical days would understate (they compress better).
 */
async function seedFullMonthOfRanks(db: Db, publications: readonly PublicationItem[], today: Day): Promise<number> {
  const { boards, table } = rankPublications(publications, today);
  const slugsByBucket = new Map<number, number[]>();
  table.columns.slugs.forEach((slug, index) => {
    const bucket = bucketOf(slug, RANK_HISTORY_BUCKETS);
    const indexes = slugsByBucket.get(bucket);
    if (indexes) indexes.push(index);
    else slugsByBucket.set(bucket, [index]);
  });
  const ranks = boardRanksOf(boards, table.columns.followersKnown, () => true);
  const month = monthOf(today);
  let random = 1;
  const jitter = (rank: number) => {
    random = (random * 48_271) % 2_147_483_647;
    return Math.max(1, Math.round(rank * (1 + (random / 2_147_483_647 - 0.5) * 0.05)));
  };
  const items: RankHistoryItem[] = [...slugsByBucket].map(([bucket, indexes]) => {
    const ofBucket: MonthOfRanks = {};
    for (const index of indexes) {
      const days: DaysOfRanks = {};
      for (let day = 1; day <= 31; day += 1)
        days[String(day).padStart(2, '0')] = Object.fromEntries(
          Object.entries(ranks.get(index) ?? {}).map(([boardId, rank]) => [boardId, jitter(rank)]),
        );
      ofBucket[table.columns.slugs[index] as string] = days;
    }
    return { bucket, month, payload: encodeMonth(ofBucket), runId: 'bench-seed', expiresAt: rankHistoryExpiry(month) };
  });
  for (let start = 0; start < items.length; start += 25)
    await writeBatch({
      items: items.slice(start, start + 25),
      send: (pending) => db.entities.rankHistory.put(pending).go({ concurrent: 1 }),
      keyOf: (key) => `${key.bucket}#${key.month}`,
      what: 'seeded rank history',
    });
  return items.length;
}

const dataDir = process.env.DATA_DIR;
const mode = process.argv[2];
if (!dataDir || (mode !== 'seed' && mode !== 'run')) throw new Error('Usage: DATA_DIR=... ranking-job.ts seed|run');

const dynamo = await startDynamoDbLocal({ dataDir: join(dataDir, 'dynamodb') });
try {
  await ensureTable(dynamo.endpoint, LOCAL_TABLE_NAME);
  // As the demo seed does: BatchWrites queue behind one another by design, and on a busy machine
  // DynamoDB Local takes longer than a handler's bound over some of them.
  const db = createDb(
    createDocumentClient({ endpoint: dynamo.endpoint, region: 'us-east-1', requestTimeout: 60_000 }),
    LOCAL_TABLE_NAME,
  );
  const today = toDay(new Date());
  if (mode === 'seed') {
    const data = generateSeedData({ today, publications: Number(process.env.PUBLICATIONS ?? 17_000) });
    const started = performance.now();
    const histories = process.env.SEED_HISTORIES === 'none' ? [] : data.histories;
    const written = await seedTable(db, { publications: data.publications, histories }, { concurrency: 16 });
    const rankHistoryItems =
      process.env.SEED_RANK_MONTH === 'full' ? await seedFullMonthOfRanks(db, data.publications, today) : 0;
    console.log(JSON.stringify({ ...written, rankHistoryItems, seedMs: Math.round(performance.now() - started) }));
  } else {
    const baselineRssMb = Math.round(process.memoryUsage().rss / 2 ** 20);
    const report = await runRanking(db);
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);

    const rows = await readAllPublications(db);
    const samples: number[] = [];
    for (let run = 0; run < 7; run += 1) {
      const started = performance.now();
      rankPublications(rows, today);
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        publications: report.publications,
        boards: report.boards,
        chunks: report.chunks,
        timings: report.timings,
        inMemoryRankingMedianMs: Math.round((samples[3] as number) * 10) / 10,
        baselineRssMb,
        peakRssMb,
      }),
    );
  }
} finally {
  await dynamo.stop();
}
