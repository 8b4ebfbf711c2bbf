/**
 * Benchmark: the ranking job over the 17,000-publication seed on an on-disk DynamoDB Local.
 * `seed` fills DATA_DIR; `run` (a fresh process, so its peak memory is the job's own) times
 * one full recompute of every board and the in-memory ranking alone. Prints one JSON line.
 * `seed` takes PUBLICATIONS (17,000 unless set) and SEED_HISTORIES=none for the job-scale
 * section, which needs no follower history: the job never reads it, and it doubles the seeding.
 */
import { join } from 'node:path';
import { createDocumentClient } from '../../functions/lib/db/client';
import { createDb } from '../../functions/lib/db/service';
import { toDay } from '../../functions/ranking/lib/domain/days';
import { rankPublications, readAllPublications, runRanking } from '../../functions/ranking/lib/ranking-run';
import { ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { LOCAL_TABLE_NAME } from '../../infra/local/runtime';
import { generateSeedData } from '../../infra/local/seed/generate-publications';
import { seedTable } from '../../infra/local/seed/seed-table';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
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
    console.log(JSON.stringify({ ...written, seedMs: Math.round(performance.now() - started) }));
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
