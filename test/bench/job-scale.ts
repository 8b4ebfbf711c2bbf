/**
 * `npm run bench -- job-scale`: the ranking job at growing numbers of publications, projected to
 * 200,000 and held to Lambda's limits with room (a third of 15 minutes, a third of the memory the
 * job's function is given). Each size is seeded into an on-disk DynamoDB Local of its own, with
 * a full month of rank history (the job's heaviest run is the month's last), then run once by the
 * bundled ranking-job-scale.ts in a fresh process; the data folder goes after.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { RANKING_JOB_MEMORY_MB } from '../../shared/schedules';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import type { JobScaleRun } from './ranking-job-scale';
import { heading, print, run, verdict } from './support';

export const DEFAULT_JOB_SCALE_SIZES = [17_000, 50_000, 100_000];
export const PROJECTED_PUBLICATIONS = 200_000;
/** Lambda's longest run is 15 minutes; the job must fit in a third of it. */
export const JOB_TIME_LIMIT_MS = (15 * 60 * 1000) / 3;
export const JOB_MEMORY_LIMIT_MB = RANKING_JOB_MEMORY_MB / 3;

/**
 * The heap Lambda's Node.js runtime gives a function of `memoryMb` (its bootstrap passes a
 * semi-space of 5% and an old space of 90% of the memory). The job runs with the heap of a
 * function given only the limit, so the garbage collector works as it would there: without it,
 * V8 on a machine with gigabytes free lets garbage pile up, and peak RSS measures its laziness.
 */
export function lambdaHeapFlags(memoryMb: number): string[] {
  return [
    `--max-semi-space-size=${Math.floor((memoryMb * 5) / 100)}`,
    `--max-old-space-size=${Math.floor((memoryMb * 90) / 100)}`,
  ];
}

export interface Fit {
  shape: 'linear' | 'n log n';
  at: (n: number) => number;
  /** Root mean square of the residuals at the measured points. */
  rms: number;
}

/** Least squares of y = a + b·g(n) over the points. */
function fitTo(shape: Fit['shape'], g: (n: number) => number, points: readonly [number, number][]): Fit {
  const xs = points.map(([n]) => g(n));
  const ys = points.map(([, y]) => y);
  const meanX = xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / ys.length;
  const spread = xs.reduce((sum, x) => sum + (x - meanX) ** 2, 0);
  const slope = spread === 0 ? 0 : xs.reduce((sum, x, index) => sum + (x - meanX) * ((ys[index] as number) - meanY), 0) / spread;
  const intercept = meanY - slope * meanX;
  const at = (n: number) => intercept + slope * g(n);
  const rms = Math.sqrt(points.reduce((sum, [n, y]) => sum + (at(n) - y) ** 2, 0) / points.length);
  return { shape, at, rms };
}

/**
 * The better of a straight line and n log n (what the job's sorts grow as) through the measured
 * points. With two points both pass through them exactly; the line is then taken.
 */
export function bestFit(points: readonly [number, number][]): Fit {
  const linear = fitTo('linear', (n) => n, points);
  const nLogN = fitTo('n log n', (n) => n * Math.log2(n), points);
  // A slope below zero is noise (a busy machine), not a job that gets faster with more to do.
  const grows = (fit: Fit) => fit.at(2 * points.at(-1)![0]) >= fit.at(points.at(-1)![0]);
  return grows(nLogN) && nLogN.rms < linear.rms * 0.999 ? nLogN : linear;
}

async function seedAndRun(input: {
  size: number;
  workDir: string;
  tsx: string;
  repoRoot: string;
  runner: string;
  env: NodeJS.ProcessEnv;
}) {
  const dataDir = join(input.workDir, `job-scale-${input.size}`);
  mkdirSync(dataDir, { recursive: true });
  try {
    const seed = JSON.parse(
      await run(input.tsx, [join(input.repoRoot, 'test/bench/ranking-job.ts'), 'seed'], {
        DATA_DIR: dataDir,
        PUBLICATIONS: String(input.size),
        SEED_HISTORIES: 'none',
        SEED_RANK_MONTH: 'full',
      }),
    ) as { publications: number; rankHistoryItems: number; seedMs: number };
    print(
      `  ${input.size.toLocaleString('en-US')}: seeded ${seed.publications} publications and ${seed.rankHistoryItems} rank history buckets holding a full month, in ${(seed.seedMs / 1000).toFixed(0)} s; running the job...`,
    );
    const dynamo = await startDynamoDbLocal({ dataDir: join(dataDir, 'dynamodb') });
    try {
      return JSON.parse(
        await run(
          process.execPath,
          [...lambdaHeapFlags(JOB_MEMORY_LIMIT_MB), input.runner],
          { ...input.env, DYNAMODB_ENDPOINT: dynamo.endpoint },
          { quiet: true },
        ),
      ) as JobScaleRun;
    } finally {
      await dynamo.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const thousands = (value: number) => Math.round(value).toLocaleString('en-US');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const megabytes = (mb: number) => `${Math.round(mb)} MB`;
/** What the job cannot do without: the process before the run, and the most the heap kept alive. */
const needOf = (measured: JobScaleRun) => measured.baselineRssMb + measured.peakLiveHeapMb;

function row(cells: string[]): string {
  const widths = [9, 9, 9, 9, 9, 27, 22, 8];
  return cells.map((cell, index) => cell.padStart(widths[index] ?? 8)).join(' | ');
}

export async function benchJobScale(input: {
  workDir: string;
  tsx: string;
  repoRoot: string;
  /** What the bundled job needs in its environment besides the endpoint (table name, log level). */
  env: NodeJS.ProcessEnv;
}): Promise<JobScaleRun[]> {
  const sizes = (process.env.JOB_SCALE_SIZES?.split(',').map(Number) ?? DEFAULT_JOB_SCALE_SIZES).filter((size) => size > 0);
  heading(`Ranking job at ${sizes.map(thousands).join(', ')} publications, projected to ${thousands(PROJECTED_PUBLICATIONS)}`);
  const runner = join(input.workDir, 'ranking-job-scale.mjs');
  await build({
    entryPoints: [join(input.repoRoot, 'test/bench/ranking-job-scale.ts')],
    outfile: runner,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    // As the function's bundle does: the SDK's CommonJS parts need a require in an ES module.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });

  const runs: JobScaleRun[] = [];
  for (const size of sizes) runs.push(await seedAndRun({ ...input, size, runner }));

  print();
  print(row(['N', 'time', 'CPU', 'peak RSS', 'needs', 'reads (requests/items/RCU)', 'writes (req./items/WCU)', 'chunks']));
  for (const measured of runs) {
    print(
      row([
        thousands(measured.publications),
        seconds(measured.wallMs),
        seconds(measured.cpuMs),
        megabytes(measured.peakRssMb),
        megabytes(needOf(measured)),
        `${thousands(measured.reads.requests)} / ${thousands(measured.reads.items)} / ${thousands(measured.reads.units)}`,
        `${thousands(measured.writes.requests)} / ${thousands(measured.writes.items)} / ${thousands(measured.writes.units)}`,
        thousands(measured.chunks),
      ]),
    );
  }
  if (runs.length < 2) {
    print('  (a projection needs at least two sizes)');
    return runs;
  }
  const fitOf = (value: (measured: JobScaleRun) => number) =>
    bestFit(runs.map((measured) => [measured.publications, value(measured)]));
  const time = fitOf((measured) => measured.wallMs);
  const cpu = fitOf((measured) => measured.cpuMs);
  const need = fitTo(
    'linear',
    (n) => n,
    runs.map((measured) => [measured.publications, needOf(measured)]),
  );
  const linear = (value: (measured: JobScaleRun) => number) =>
    fitTo(
      'linear',
      (n) => n,
      runs.map((measured) => [measured.publications, value(measured)]),
    ).at(PROJECTED_PUBLICATIONS);
  const n = PROJECTED_PUBLICATIONS;
  // Lambda gives a whole vCPU at 1,769 MB; a single-threaded job uses one at most.
  const vcpuShare = Math.min(1, RANKING_JOB_MEMORY_MB / 1769);
  print(
    row([
      `${thousands(n)}*`,
      seconds(time.at(n)),
      seconds(cpu.at(n)),
      '',
      megabytes(need.at(n)),
      `${thousands(linear((m) => m.reads.requests))} / ${thousands(linear((m) => m.reads.items))} / ${thousands(linear((m) => m.reads.units))}`,
      `${thousands(linear((m) => m.writes.requests))} / ${thousands(linear((m) => m.writes.items))} / ${thousands(linear((m) => m.writes.units))}`,
      thousands(linear((m) => m.chunks)),
    ]),
  );
  print(
    row(['limit', seconds(JOB_TIME_LIMIT_MS), '', megabytes(JOB_MEMORY_LIMIT_MB), megabytes(JOB_MEMORY_LIMIT_MB), '', '', '']),
  );
  print(
    row([
      'projected',
      time.at(n) <= JOB_TIME_LIMIT_MS ? 'PASS' : 'FAIL',
      '',
      '',
      need.at(n) <= JOB_MEMORY_LIMIT_MB ? 'PASS' : 'FAIL',
      '',
      '',
      '',
    ]),
  );
  print(
    `  * projected: time ${time.shape} (rms ${seconds(time.rms)}), CPU ${cpu.shape}, memory need linear (rms ${megabytes(need.rms)}); counts linear. Peak RSS is measured with the heap Lambda gives a function of ${megabytes(JOB_MEMORY_LIMIT_MB)} (${lambdaHeapFlags(JOB_MEMORY_LIMIT_MB).join(' ')}); the need is the RSS before the run and the most the heap held after a full collection.`,
  );
  print(
    `  Limits: a third of Lambda's 15 minutes, and a third of the job's ${RANKING_JOB_MEMORY_MB} MB. At ${RANKING_JOB_MEMORY_MB} MB Lambda gives the job's one thread ${(vcpuShare * 100).toFixed(0)}% of a vCPU: the projected CPU alone would take ${seconds(cpu.at(n) / vcpuShare)}.`,
  );
  const largest = runs.at(-1) as JobScaleRun;
  print(
    `  At ${thousands(largest.publications)}: ${JSON.stringify(largest.timings)}; peak heap ${largest.peakHeapMb} MB, RSS before the run ${largest.baselineRssMb} MB`,
  );
  print(
    `  Requests by command: ${Object.entries(largest.commands)
      .map(
        ([name, tally]) =>
          `${name} ${thousands(tally.requests)} (${thousands(tally.items)} items, ${thousands(tally.units)} units)`,
      )
      .join('; ')}`,
  );
  print(
    `  Fits within the limits at ${thousands(n)}: time ${verdict(time.at(n) <= JOB_TIME_LIMIT_MS)}, memory ${verdict(need.at(n) <= JOB_MEMORY_LIMIT_MB)}`,
  );
  return runs;
}
