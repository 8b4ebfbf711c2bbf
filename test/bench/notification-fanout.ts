/**
 * Benchmark: one publication with many followers climbs, and the news fans out through the
 * notification-fanout queue. The local runtime (on-disk DynamoDB Local, the local SQS and its
 * poller running the consumer as Lambda's event source mapping would) with 200 demo
 * publications; FOLLOWERS synthetic people follow the #1 publication (written with BatchWrite
 * straight to the table), and its watch is set back as if it had been #150. Then the hourly
 * ranking job runs: its own time, against a run with no news, and the time until every
 * follower has the notification (every message consumed, then counted in the table). Progress
 * goes to stderr; the result is the last line of stdout, as JSON.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime } from '../../infra/local/runtime';
import { writeSyntheticFollowers } from '../support/synthetic-follows';
import { bulkTableAccess } from './support';

const FOLLOWERS = Number(process.env.BENCH_FANOUT_FOLLOWERS ?? 100_000);
const QUEUE = 'notification-fanout';
const log = (line: string) => process.stderr.write(`  ${line}\n`);

const dataDir = mkdtempSync(join(tmpdir(), 'toppubs-fanout-'));
const runtime = await startLocalRuntime({
  port: 0,
  dataDir,
  seedIfEmpty: true,
  seedPublications: 200,
  runJobsAtStart: true,
  archiveAtStart: false,
  log: (line) => {
    // The queue's complaints (a failed or timed-out delivery) are what this bench is about.
    if (line.startsWith('SQS')) log(line);
  },
});
try {
  await runtime.ready;
  const db = bulkTableAccess(runtime);
  const board = (await (await fetch(`${runtime.url}/api/i/toppubs/load/pubs?limit=1`)).json()) as { items: { slug: string }[] };
  const slug = board.items[0]?.slug;
  if (!slug) throw new Error('The local runtime ranked no publication');

  const writeStarted = performance.now();
  await writeSyntheticFollowers(db, { slug, count: FOLLOWERS, prefix: 'bench-follower', calls: 16 });
  const writeMs = performance.now() - writeStarted;
  log(`${FOLLOWERS} synthetic follows of ${slug} written in ${(writeMs / 1000).toFixed(1)} s`);

  // The same job with no news first: the run the climb is compared with.
  const quietStarted = performance.now();
  await runtime.runJob('rank-publications');
  const quietJobMs = performance.now() - quietStarted;
  await runtime.queuesSettled();

  await db.entities.publicationWatch
    .patch({ slug })
    .set({ lastRanks: { 'followers.all': 150 }, baselines: { 'followers.all': 150 }, runId: 'bench-older-run' })
    .go();
  const runStarted = performance.now();
  await runtime.runJob('rank-publications');
  const jobMs = performance.now() - runStarted;
  const queuedByJob = runtime.workQueues.waiting(QUEUE).length;
  await runtime.queuesSettled();
  const allMs = performance.now() - runStarted;
  const leftInQueue = runtime.workQueues.waiting(QUEUE).length;

  // Every follower's notification, counted in the table (a parallel Scan, after the clock stopped).
  const countStarted = performance.now();
  const segments = 4;
  const counts = await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      let count = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.client.send(
          new ScanCommand({
            TableName: runtime.tableName,
            Segment: segment,
            TotalSegments: segments,
            Select: 'COUNT',
            FilterExpression: '#entity = :entity AND #kind = :kind AND objectId = :slug',
            ExpressionAttributeNames: { '#entity': '__edb_e__', '#kind': 'kind' },
            ExpressionAttributeValues: { ':entity': 'notification', ':kind': 'publication-rose', ':slug': slug },
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        count += page.Count ?? 0;
        start = page.LastEvaluatedKey;
      } while (start);
      return count;
    }),
  );
  const notified = counts.reduce((sum, count) => sum + count, 0);
  log(`counted ${notified} notifications in ${((performance.now() - countStarted) / 1000).toFixed(1)} s`);

  console.log(
    JSON.stringify({
      followers: FOLLOWERS,
      writeMs: Math.round(writeMs),
      quietJobMs: Math.round(quietJobMs),
      jobMs: Math.round(jobMs),
      queuedByJob,
      allMs: Math.round(allMs),
      notified,
      leftInQueue,
    }),
  );
} finally {
  await runtime.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
