/**
 * `npm run bench`: every performance budget of the platform, measured on this machine and
 * printed with its target. Seeds a throw-away on-disk data folder; leaves nothing running.
 * `npm run bench -- bundles api` runs only the sections named (bundles, job, api, pages, stories, transfers, payments, store,
 * analytics, crawler, web). Three long ones run only when named: `job-scale` (the ranking job at up to 100,000 publications) and
 * `fanout` (one climb told to 100,000 followers), each several minutes, and `hot-items` (a viral story's likes, a popular
 * transfer's downloads and a launch's sales, each on one item, about a minute each).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { bundleFolder, bundleFunctions, handlerEntryPoints } from '../../infra/build/bundle-functions';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { findFreePort } from '../../infra/local/free-port';
import { LOCAL_TABLE_NAME, REPO_ROOT } from '../../infra/local/runtime';
import { LOCAL_BUCKETS } from '../../infra/local/s3-local';
import { benchBundles } from './bundles';
import { benchCrawlerPage } from './crawler-page';
import type { HotItemsReport } from './hot-items';
import { benchJobScale } from './job-scale';
import { benchPipeline } from './pipeline';
import { steadyLoad } from './steady-load';
import { heading, median, nodeTreeCpuSeconds, print, run, startUntil, stopChild, verdict } from './support';
import { benchWeb } from './web';
import { ensureWebBuilt } from '../../infra/local/web-build';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const workDir = mkdtempSync(join(tmpdir(), 'toppubs-bench-'));
const dataDir = join(workDir, 'data');
const TSX = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
/** What `npm start` runs after `node` (one process: tsx as a loader, not tsx's CLI wrapper). */
const LOCAL_START = ['--import', 'tsx', join(REPO_ROOT, 'infra/local/main.ts')];
const lambdaEnv = {
  TABLE_NAME: LOCAL_TABLE_NAME,
  ALLOWED_ORIGINS: 'http://localhost:3000',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  POWERTOOLS_LOG_LEVEL: 'ERROR',
  POWERTOOLS_METRICS_DISABLED: 'true',
};

const SECTIONS = [
  'bundles',
  'job',
  'fanout',
  'api',
  'pages',
  'stories',
  'transfers',
  'package',
  'payments',
  'store',
  'analytics',
  'crawler',
  'web',
  'job-scale',
  'hot-items',
] as const;
type Section = (typeof SECTIONS)[number];
/** Sections too long for a plain `npm run bench`: run when named. */
const NAMED_ONLY: readonly Section[] = ['job-scale', 'fanout', 'hot-items'];

function chosenSections(args: readonly string[]): Set<Section> {
  const unknown = args.filter((arg) => !(SECTIONS as readonly string[]).includes(arg));
  if (unknown.length > 0) {
    console.error(`Unknown bench section(s): ${unknown.join(', ')}. Choose from: ${SECTIONS.join(', ')}.`);
    process.exit(2);
  }
  return new Set(args.length > 0 ? (args as Section[]) : SECTIONS.filter((section) => !NAMED_ONLY.includes(section)));
}

/** The deployed bundle of one function, built on its own when the bundles section did not build it. */
async function functionBundle(name: string, built?: Map<string, string>): Promise<string> {
  const existing = built?.get(name);
  if (existing) return existing;
  const outDir = join(workDir, 'bundles');
  await bundleFunctions({ outDir, entries: handlerEntryPoints().filter((entry) => entry.name === name) });
  return join(bundleFolder(outDir, name), 'index.mjs');
}

async function benchRankingJob(jobBundle: string): Promise<void> {
  heading('Ranking job over the 17,000-publication seed (DynamoDB Local on disk)');
  const env = { DATA_DIR: dataDir };
  const seed = JSON.parse(await run(TSX, [join(REPO_ROOT, 'test/bench/ranking-job.ts'), 'seed'], env)) as Record<string, number>;
  print(
    `seeded ${seed.publications} publications and ${seed.histories} histories in ${((seed.seedMs ?? 0) / 1000).toFixed(1)} s`,
  );

  const job = JSON.parse(await run(TSX, [join(REPO_ROOT, 'test/bench/ranking-job.ts'), 'run'], env)) as {
    boards: number;
    chunks: number;
    timings: Record<string, number>;
    inMemoryRankingMedianMs: number;
  };
  const { readMs = 0, rankMs = 0, encodeMs = 0, writeMs = 0, totalMs = 0 } = job.timings;
  print(`full recompute: ${job.boards} boards, ${job.chunks} chunks`);
  print(`  read ${readMs} ms, rank ${rankMs} ms, encode ${encodeMs} ms, write ${writeMs} ms`);
  print(`  wall time ${(totalMs / 1000).toFixed(1)} s (target <= 20 s): ${verdict(totalMs <= 20_000)}`);
  print(
    `  in-memory ranking, median of 7 warm runs ${job.inMemoryRankingMedianMs} ms (target <= 300 ms): ${verdict(job.inMemoryRankingMedianMs <= 300)}`,
  );

  // Peak memory as Lambda would see it: the bundled job handler alone in a fresh process.
  const dynamo = await startDynamoDbLocal({ dataDir: join(dataDir, 'dynamodb') });
  try {
    const script = `const m=await import(${JSON.stringify(pathToFileURL(jobBundle).href)});const t=performance.now();await m.handler({});console.log(JSON.stringify({ms:performance.now()-t,maxRssMb:process.resourceUsage().maxRSS/1024}))`;
    const lambda = JSON.parse(
      await run(process.execPath, ['--input-type=module', '-e', script], { ...lambdaEnv, DYNAMODB_ENDPOINT: dynamo.endpoint }),
    ) as {
      ms: number;
      maxRssMb: number;
    };
    print(
      `  bundled job handler: ${(lambda.ms / 1000).toFixed(1)} s, peak memory ${lambda.maxRssMb.toFixed(0)} MB (target <= 256 MB): ${verdict(lambda.maxRssMb <= 256)}`,
    );
  } finally {
    await dynamo.stop();
  }
}

/** Followers of the one publication that climbs (BENCH_FANOUT_FOLLOWERS overrides, for a quicker look). */
const FANOUT_FOLLOWERS = Number(process.env.BENCH_FANOUT_FOLLOWERS ?? 100_000);
/** The issue's target: every follower has the notification within 5 minutes of the run. */
const FANOUT_TARGET_MS = 5 * 60_000;

/**
 * Notification fan-out: one publication with FANOUT_FOLLOWERS followers climbs; the ranking
 * job queues its news and the notification-fanout queue's consumer (the local SQS poller, as
 * Lambda's event source mapping) tells them. In a process of its own (test/bench/notification-fanout.ts).
 */
async function benchNotificationFanOut(): Promise<void> {
  heading(`Notification fan-out: one publication with ${FANOUT_FOLLOWERS.toLocaleString('en-US')} followers climbs`);
  const output = await run(TSX, [join(REPO_ROOT, 'test/bench/notification-fanout.ts')], {
    ...lambdaEnv,
    BENCH_FANOUT_FOLLOWERS: String(FANOUT_FOLLOWERS),
  });
  const result = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as {
    followers: number;
    writeMs: number;
    quietJobMs: number;
    jobMs: number;
    queuedByJob: number;
    allMs: number;
    notified: number;
    leftInQueue: number;
  };
  const rate = result.notified / Math.max(0.001, (result.allMs - result.jobMs) / 1000);
  print(`synthetic follows written with BatchWrite in ${(result.writeMs / 1000).toFixed(1)} s`);
  print(
    `  ranking job: ${(result.jobMs / 1000).toFixed(1)} s with the climb (it queued ${result.queuedByJob} message), ` +
      `${(result.quietJobMs / 1000).toFixed(1)} s with no news: independent of the followers ${verdict(result.queuedByJob === 1 && result.jobMs <= result.quietJobMs * 1.5 + 1_000)}`,
  );
  print(
    `  every follower notified ${(result.allMs / 1000).toFixed(1)} s after the run started (${result.notified.toLocaleString('en-US')} of ${result.followers.toLocaleString('en-US')}, ` +
      `${rate.toFixed(0)} notifications/s, ${result.leftInQueue} messages left): within 5 minutes ${verdict(result.notified === result.followers && result.leftInQueue === 0 && result.allMs <= FANOUT_TARGET_MS)}`,
  );
}

/**
 * Hot items: the story, transfer and shop items that one popular thing makes everyone write, each
 * driven at a steady rate over HTTP (test/bench/hot-items.ts, in a process of its own), and the
 * write units its partition would take in AWS at the issue's real rate against a partition's 1,000.
 */
async function benchHotItems(): Promise<void> {
  const output = await run(TSX, [join(REPO_ROOT, 'test/bench/hot-items.ts')], lambdaEnv);
  const { seconds, partitionWcuPerSecond, results } = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as HotItemsReport;
  heading(`Hot items: one item written by everyone, ${seconds} s a case at a scaled rate over HTTP`);
  for (const result of results) {
    const share = result.hotWcuPerSecond / partitionWcuPerSecond;
    print(
      `${result.name}: ${result.requests} requests at ${result.localPerSecond.toFixed(1)}/s (real ${result.realPerSecond.toFixed(1)}/s, scale 1:${(result.realPerSecond / result.localPerSecond).toFixed(1)}), answered ${JSON.stringify(result.statuses)}`,
    );
    print(
      `  count ${result.count} of ${result.expected} expected: exact ${verdict(result.count === result.expected)}; p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms; retries ${result.retries}, given up ${result.givenUp}`,
    );
    print(
      `  ${result.writeUnitsPerRequest} write units a request (whole route), ${result.hotWcuPerRequest} on the hot partition: ` +
        `${result.hotWcuPerSecond} WCU/s at the real rate against ${partitionWcuPerSecond} (${Math.round(share * 100)}%): under half ${verdict(share < 0.5)}`,
    );
    print(`  hot partition: ${result.hotItem}`);
  }
}

async function load(url: string): Promise<autocannon.Result> {
  await autocannon({ url, connections: 32, duration: 2 });
  return autocannon({ url, connections: 32, duration: 10 });
}

/** Rounds of ours then bare, each `ROUND_SECONDS` long, after a warm-up of each. */
const ROUNDS = 4;
const ROUND_SECONDS = 4;

interface Server {
  port: number;
  /** The process tree whose Node CPU time is counted. */
  pid: number;
}

/** A round of load on one server, with the server's CPU time per answered request. */
async function round(server: Server, path: string, seconds: number) {
  const cpuBefore = nodeTreeCpuSeconds(server.pid);
  const result = await autocannon({ url: `http://127.0.0.1:${server.port}${path}`, connections: 32, duration: seconds });
  const cpuMicrosPerRequest = ((nodeTreeCpuSeconds(server.pid) - cpuBefore) * 1e6) / Math.max(1, result.requests.total);
  return Object.assign(result, { cpuMicrosPerRequest });
}

/**
 * One server mode under load against the bare server, in alternating rounds. On a 2-core machine
 * the load generator shares the cores, and one 10 s run of each after the other saw the same bare
 * server answer anywhere from 11,000 to 30,000 req/s: a ratio of one run each was mostly noise.
 * Alternating short rounds puts both under the same conditions, and the median of the per-round
 * ratios ignores a round that something else on the machine disturbed.
 */
async function compare(
  label: string,
  oursServer: Server,
  bareServer: Server,
  path: string,
  body: string,
  throughput: 'judged' | 'for reference',
): Promise<void> {
  await round(oursServer, path, 2);
  await round(bareServer, path, 2);
  const rounds: { ours: Awaited<ReturnType<typeof round>>; bare: Awaited<ReturnType<typeof round>> }[] = [];
  for (let index = 0; index < ROUNDS; index += 1) {
    const ours = await round(oursServer, path, ROUND_SECONDS);
    const bare = await round(bareServer, path, ROUND_SECONDS);
    rounds.push({ ours, bare });
  }
  const ratio = median(rounds.map(({ ours, bare }) => ours.requests.average / bare.requests.average));
  const oursRate = median(rounds.map(({ ours }) => ours.requests.average));
  const bareRate = median(rounds.map(({ bare }) => bare.requests.average));
  const oursP99 = Math.max(...rounds.map(({ ours }) => ours.latency.p99));
  const errors = rounds.reduce((sum, { ours }) => sum + ours.errors + ours.non2xx, 0);
  print(`${path} (${(Buffer.byteLength(body) / 1024).toFixed(1)} KB body), ${label}`);
  print(
    `  ours:      ${oursRate.toFixed(0)} req/s (median of ${ROUNDS} rounds), p50 ${median(rounds.map(({ ours }) => ours.latency.p50))} ms, worst p99 ${oursP99} ms, errors ${errors}`,
  );
  print(
    `  bare node: ${bareRate.toFixed(0)} req/s (median of ${ROUNDS} rounds), p50 ${median(rounds.map(({ bare }) => bare.latency.p50))} ms`,
  );
  // What each answer costs the server itself, apart from how the load generator shares the
  // cores: the compute Lambda would bill. The target above stays on req/s, as the issue sets it.
  const oursCpu = median(rounds.map(({ ours }) => ours.cpuMicrosPerRequest));
  const bareCpu = median(rounds.map(({ bare }) => bare.cpuMicrosPerRequest));
  print(
    `  server CPU per answer: ours ${oursCpu.toFixed(0)} µs, bare ${bareCpu.toFixed(0)} µs (bare is ${((bareCpu / oursCpu) * 100).toFixed(0)}% of ours)`,
  );
  print(
    `  per-round ratios ${rounds.map(({ ours, bare }) => `${((ours.requests.average / bare.requests.average) * 100).toFixed(0)}%`).join(', ')}; ` +
      `p99 ${oursP99} ms (target <= 25 ms): ${verdict(oursP99 <= 25)}; throughput ${(ratio * 100).toFixed(0)}% of bare, median ` +
      (throughput === 'judged'
        ? `(target >= 50%): ${verdict(ratio >= 0.5)}`
        : '(for reference: the local emulation of AWS included, see below)'),
  );
}

/**
 * Publication pages asked for per second, evenly spaced. Each page costs about 10 ms of CPU in
 * the handler and several in DynamoDB Local, and this machine's two cores also run the load
 * generator, so it saturates a little under 100 pages a second; at 75 its p99 swings between
 * 25 and 100 ms with the garbage collectors of both processes. 50 is a busy steady load it
 * carries (in AWS each concurrent request gets its own Lambda instance instead). The same run
 * also offers three times that, to show where this machine's capacity ends.
 */
const PAGE_RATE = Number(process.env.BENCH_PAGE_RATE ?? 50);
/**
 * Locally the ranking run that precedes "Rankings are up to date" shares the server's process,
 * and its garbage, and DynamoDB Local's JVM starts cold: latencies settle after about 40 s of
 * load.
 */
const PAGE_WARM_UP_SECONDS = 45;

/**
 * The publication page's data under a steady load, every request through its handler (edge
 * cache off), each for a publication drawn at random from all 17,000 of the demo: the handler's
 * answer cache holds 1,000 answers, so nearly every request pays the page's two Queries. Runs on
 * the data the other sections seeded, once its rank history is in.
 */
async function benchPublicationPages(): Promise<void> {
  const port = await findFreePort();
  const start = () =>
    startUntil(process.execPath, LOCAL_START, /Rankings are up to date/, {
      DATA_DIR: dataDir,
      PORT: String(port),
      LOCAL_EDGE_CACHE: 'off',
    });
  let server = await start();
  // A server that just seeded 17,000 publications carries that work's garbage into the
  // measurement; a deployed handler never seeds, so the pages are measured on a fresh start.
  if (server.output().includes('Seeding')) {
    await stopChild(server.child);
    server = await start();
  }
  try {
    heading(
      `Publication pages: ${PAGE_RATE} a second, evenly spaced, for 10 s, a random one of all per request, through the handler`,
    );
    const slugs: string[] = [];
    for (let from = 0; ; from += 100) {
      const page = (await (await fetch(`http://127.0.0.1:${port}/api/i/toppubs/load/pubs?from=${from}&limit=100`)).json()) as {
        items: { slug: string }[];
      };
      slugs.push(...page.items.map(({ slug }) => slug));
      if (page.items.length < 100) break;
    }
    const load = (rate: number, seconds: number) =>
      steadyLoad({
        url: `http://127.0.0.1:${port}`,
        rate,
        seconds,
        path: () => `/api/i/toppubs/pub/${slugs[Math.floor(Math.random() * slugs.length)]}`,
      });
    await load(PAGE_RATE, PAGE_WARM_UP_SECONDS);
    const result = await load(PAGE_RATE, 10);
    print(
      `  ${slugs.length} publications at ${result.rate.toFixed(0)} req/s: p50 ${result.p50} ms, p99 ${result.p99} ms, ` +
        `errors ${result.errors}; p99 (target <= 25 ms): ${verdict(result.p99 <= 25 && result.errors === 0)}`,
    );
    const beyond = await load(PAGE_RATE * 3, 5);
    print(
      `  offered ${PAGE_RATE * 3} req/s (beyond this machine, for reference): answered ${beyond.rate.toFixed(0)} req/s, p50 ${beyond.p50} ms, p99 ${beyond.p99} ms`,
    );
  } finally {
    await stopChild(server.child);
  }
}

/**
 * The stories on the demo data `npm start` seeds: the hot feed and one person's feed under load
 * (answered by their handlers: the feeds are not cached at the edge), then 1,000 concurrent like
 * and unlike calls on one story, whose count must equal its likes afterwards, then the delay
 * from a like to the liked person's bell over the WebSocket.
 */
async function benchStories(port: number, serverOutput: string): Promise<void> {
  heading('Stories under load: autocannon, 32 connections, 10 s (after a 2 s warm-up)');
  const newest = (await (await fetch(`http://127.0.0.1:${port}/api/i/stories/feed/new`)).json()) as {
    items: { sharer: { userId: string } | null }[];
  };
  const sharerId = newest.items.find((story) => story.sharer)?.sharer?.userId;
  if (!sharerId) throw new Error('npm start seeded no stories');
  for (const path of ['/api/i/stories/feed/hot', `/api/i/stories/user/${sharerId}/stories`]) {
    const result = await load(`http://127.0.0.1:${port}${path}`);
    print(`${path.replace(sharerId, '{userId}')}`);
    print(
      `  ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors + result.non2xx}; p99 (target <= 25 ms): ${verdict(result.latency.p99 <= 25 && result.errors + result.non2xx === 0)}`,
    );
  }

  const dynamoDbEndpoint = /DynamoDB Local ready at (\S+)/.exec(serverOutput)?.[1];
  if (!dynamoDbEndpoint) throw new Error('npm start did not print its DynamoDB Local endpoint');
  const likes = JSON.parse(
    await run(TSX, [join(REPO_ROOT, 'test/bench/concurrent-likes.ts')], {
      ...lambdaEnv,
      DYNAMODB_ENDPOINT: dynamoDbEndpoint,
      API_URL: `http://127.0.0.1:${port}`,
    }),
  ) as { calls: number; wallMs: number; statuses: Record<string, number>; likeCount: number; likes: number };
  const answered = Object.entries(likes.statuses)
    .map(([status, count]) => `${count} x ${status}`)
    .join(', ');
  print(
    `${likes.calls} concurrent like/unlike calls on one story (50 readers): ${(likes.wallMs / 1000).toFixed(1)} s wall, answers ${answered}`,
  );
  print(`  like count ${likes.likeCount}, like items ${likes.likes}: counts exact ${verdict(likes.likeCount === likes.likes)}`);
  print(`  every call answered 200: ${verdict(likes.statuses['200'] === likes.calls)}`);

  const bell = JSON.parse(
    await run(TSX, [join(REPO_ROOT, 'test/bench/notification-to-bell.ts')], {
      ...lambdaEnv,
      DYNAMODB_ENDPOINT: dynamoDbEndpoint,
      API_URL: `http://127.0.0.1:${port}`,
    }),
  ) as { likes: number; medianMs: number; p99Ms: number; maxMs: number; missing: number };
  print(`Notification to bell over the WebSocket, ${bell.likes} likes one after another (from sending the like):`);
  print(
    `  median ${bell.medianMs} ms, p99 ${bell.p99Ms} ms, worst ${bell.maxMs} ms, never arrived ${bell.missing}; ` +
      `within a second (p99 <= 1,000 ms, none lost): ${verdict(bell.p99Ms <= 1_000 && bell.missing === 0)}`,
  );
}

/** `npm start` with its demo people and stories (and a few publications: the boards are not measured here). */
async function benchStoriesOnNpmStart(): Promise<void> {
  const port = await findFreePort();
  const server = await startUntil(process.execPath, LOCAL_START, /Rankings are up to date/, {
    DATA_DIR: join(workDir, 'stories-data'),
    PORT: String(port),
    SEED_PUBLICATIONS: '200',
  });
  try {
    await benchStories(port, server.output());
  } finally {
    await stopChild(server.child);
  }
}

/**
 * The API under load and, on the same server, the web app. `npm start` seeds the data folder
 * itself when the job section did not.
 */
async function benchApi(options: { api: boolean; web: boolean; bundles: Map<string, string> | undefined }): Promise<void> {
  const paths = ['/api/i/toppubs/show/home', '/api/i/toppubs/load/pubs?page=100'];
  // The product as `npm start` runs it (with the CloudFront-like edge cache), then every
  // request through the Lambda handler, to show what the handler path alone sustains.
  const modes = [
    { label: 'as npm start serves it (edge cache on)', env: {} },
    { label: 'every request through the handler (LOCAL_EDGE_CACHE=off)', env: { LOCAL_EDGE_CACHE: 'off' } },
  ].slice(0, options.api ? 2 : 1);
  let bare: Awaited<ReturnType<typeof startUntil>> | undefined;
  let barePort = 0;
  const bareServer = (): Server => ({ port: barePort, pid: bare?.child.pid as number });
  const bodies: Record<string, string> = {};
  try {
    for (const mode of modes) {
      const port = await findFreePort();
      const api = await startUntil(process.execPath, LOCAL_START, /Rankings are up to date/, {
        DATA_DIR: dataDir,
        PORT: String(port),
        ...mode.env,
      });
      try {
        if (options.api && !bare) {
          for (const path of paths) bodies[path] = await (await fetch(`http://127.0.0.1:${port}${path}`)).text();
          const bodiesFile = join(workDir, 'bodies.json');
          writeFileSync(bodiesFile, JSON.stringify(bodies));
          bare = await startUntil(TSX, [join(REPO_ROOT, 'test/bench/bare-server.ts'), bodiesFile], /listening \d+/);
          barePort = Number(/listening (\d+)/.exec(bare.output())?.[1]);
        }
        if (options.api) {
          if (mode === modes[0])
            heading(
              `API under load: autocannon, 32 connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s each against the bare server, alternating`,
            );
          for (const path of paths) {
            const server = { port, pid: api.child.pid as number };
            await compare(mode.label, server, bareServer(), path, bodies[path] ?? '', 'for reference');
          }
        }
        if (options.api && mode === modes.at(-1)) {
          heading('Request pipeline: a deployed handler called in a loop, warm, no HTTP server');
          const dynamoDbEndpoint = /DynamoDB Local ready at (\S+)/.exec(api.output())?.[1];
          if (!dynamoDbEndpoint) throw new Error('npm start did not print its DynamoDB Local endpoint');
          const env = { ...lambdaEnv, DYNAMODB_ENDPOINT: dynamoDbEndpoint };
          const calls: { name: string; rawPath: string; query: Record<string, string> }[] = [
            { name: 'ranking/show-home', rawPath: '/api/i/toppubs/show/home', query: {} },
            { name: 'ranking/load-pubs', rawPath: '/api/i/toppubs/load/pubs', query: { page: '100' } },
          ];
          for (const call of calls) await benchPipeline(call.name, await functionBundle(call.name, options.bundles), call, env);

          // The same load on each bundle with nothing of npm start around it: what Lambda bills
          // per request, apart from what the local runtime adds to emulate AWS. The throughput
          // target is judged here. Through npm start, every function runs in one Node process,
          // each call inside its function's AsyncLocalStorage scope (its own environment and
          // grants): on Node 20 that puts a hook on every promise the process makes, which took
          // 12 points off load/pubs' ratio when replaced by a plain variable in an experiment,
          // and no Lambda pays it. On two cores shared with the load generator, each 20 µs of
          // CPU a server adds per answer costs it about a quarter of bare's rate.
          heading(
            'The deployed bundle alone under load (the throughput target): no router, no function scopes, no other handlers',
          );
          for (const call of calls) {
            const path = paths.find((candidate) => candidate.startsWith(call.rawPath)) ?? call.rawPath;
            const alone = await startUntil(
              TSX,
              [join(REPO_ROOT, 'test/bench/bundle-server.ts'), await functionBundle(call.name, options.bundles), call.rawPath],
              /listening \d+/,
              env,
            );
            try {
              const alonePort = Number(/listening (\d+)/.exec(alone.output())?.[1]);
              await compare(
                `${call.name} bundle alone`,
                { port: alonePort, pid: alone.child.pid as number },
                bareServer(),
                path,
                bodies[path] ?? '',
                'judged',
              );
            } finally {
              await stopChild(alone.child);
            }
          }
        }
        if (options.web && mode === modes[0]) {
          heading('Web app: the home page in headless Chromium on the local server');
          await benchWeb(`http://localhost:${port}`);
        }
      } finally {
        await stopChild(api.child);
      }
    }
  } finally {
    if (bare) await stopChild(bare.child);
  }
}

/**
 * The file-transfer app on `npm start`: 1 GiB through the product's upload client against one
 * plain PUT to the same S3 emulator; the zip of a 20-file, 1 GiB package as the web app builds
 * it. Each measured script runs in a process of its own that loads only what it measures, so the
 * memory it reports is its own.
 */
/** Package views a second on one package: far more than a transfer's recipients open, evenly spaced as independent visitors arrive. */
const PACKAGE_RATE = Number(process.env.BENCH_PACKAGE_RATE ?? 10);

/** `npm start` with no demo data, on a free port and a data folder of its own, and what it printed at start. */
async function startEmptyProduct(dataFolder: string) {
  const port = await findFreePort();
  const server = await startUntil(process.execPath, LOCAL_START, /API and web app listening/, {
    DATA_DIR: join(workDir, dataFolder),
    PORT: String(port),
    SEED_PUBLICATIONS: '0',
  });
  /** A value the start printed (an emulator's endpoint), by the pattern that captures it. */
  const printed = (pattern: RegExp, what: string): string => {
    const value = pattern.exec(server.output())?.[1];
    if (!value) throw new Error(`npm start did not print ${what}`);
    return value;
  };
  return { server, port, printed, dynamoDbEndpoint: printed(/DynamoDB Local ready at (\S+)/, "DynamoDB Local's endpoint") };
}

async function benchTransfersOnNpmStart(): Promise<void> {
  const { server, port, printed, dynamoDbEndpoint } = await startEmptyProduct('transfers-data');
  try {
    const s3Endpoint = printed(/S3 emulator ready at (\S+)/, "the S3 emulator's endpoint");
    const apiUrl = `http://127.0.0.1:${port}`;
    const tableEnv = { ...lambdaEnv, DYNAMODB_ENDPOINT: dynamoDbEndpoint, API_URL: apiUrl };
    const signedIn = JSON.parse(await run(TSX, [join(REPO_ROOT, 'test/bench/transfer-sign-in.ts')], tableEnv)) as {
      token: string;
    };
    const s3 = new S3Client({
      region: 'us-east-1',
      endpoint: s3Endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const plainPutUrl = await getSignedUrl(
      s3,
      new PutObjectCommand({ Bucket: LOCAL_BUCKETS[0], Key: 'transfers/bench/plain-put' }),
      {
        expiresIn: 3_600,
      },
    );
    const senderEnv = { API_URL: apiUrl, BENCH_SESSION: signedIn.token, PLAIN_PUT_URL: plainPutUrl };

    heading('File transfer: 1 GiB through the upload client vs one plain PUT, to the local S3 emulator');
    // Bundled and run by plain node, as a page runs it bundled: tsx's own loader would count as the client's memory.
    const uploadScript = join(workDir, 'transfer-upload.mjs');
    await build({
      entryPoints: [join(REPO_ROOT, 'test/bench/transfer-upload.ts')],
      outfile: uploadScript,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
    });
    const upload = JSON.parse(await run(process.execPath, [uploadScript], senderEnv)) as {
      clientMBps: number;
      clientWithFinalizeMBps: number;
      plainMBps: number;
      rounds: number;
      ratio: number;
      ratios: number[];
      idleRssMb: number;
      clientPeakRssMb: number;
    };
    print(
      `upload client ${upload.clientMBps} MB/s sending the parts (${upload.clientWithFinalizeMBps} MB/s with the finalize), one plain PUT ${upload.plainMBps} MB/s, medians of ${upload.rounds} alternating rounds: ratio ${upload.ratio} (rounds ${upload.ratios.join(', ')}; goal >= 0.7): ${verdict(upload.ratio >= 0.7)}`,
    );
    print(
      '  (the finalize completes the multipart upload: S3 does that without copying, s3rver copies the whole file, so the ratio is on the sending)',
    );
    print(
      `  the uploading process peaked at ${upload.clientPeakRssMb} MB resident in its first round (${upload.idleRssMb} MB of it Node and the client's modules before the upload) (goal <= 150 MB): ${verdict(upload.clientPeakRssMb <= 150)}`,
    );

    heading('File transfer: "download all" of 20 files totalling 1 GiB, zipped by client-zip as the service worker does');
    const linksFile = join(workDir, 'zip-links.json');
    writeFileSync(linksFile, await run(TSX, [join(REPO_ROOT, 'test/bench/transfer-zip-seed.ts')], senderEnv));
    const zip = JSON.parse(await run(TSX, [join(REPO_ROOT, 'test/bench/transfer-zip.ts'), linksFile], senderEnv)) as {
      files: number;
      zipBytes: number;
      seconds: number;
      MBps: number;
      peakRssMb: number;
    };
    print(`${zip.files} files, zip of ${(zip.zipBytes / 1e6).toFixed(0)} MB in ${zip.seconds} s (${zip.MBps} MB/s)`);
    print(
      `  peak memory of the process building it ${zip.peakRssMb} MB resident (goal <= 200 MB): ${verdict(zip.peakRssMb <= 200)}`,
    );
  } finally {
    await stopChild(server.child);
  }
}

/**
 * A 1,000-file package page under load, on an `npm start` of its own: the upload section leaves
 * gigabytes being written back to disk and a runtime that has streamed them, neither of which is
 * the load this figure is about, so the section waits for the disk (sync) and starts afresh.
 */
async function benchPackageOnNpmStart(): Promise<void> {
  await run('sync', []);
  const { server, port, dynamoDbEndpoint } = await startEmptyProduct('package-data');
  try {
    const apiUrl = `http://127.0.0.1:${port}`;
    const tableEnv = { ...lambdaEnv, DYNAMODB_ENDPOINT: dynamoDbEndpoint, API_URL: apiUrl };
    heading(`File transfer: GET /transfer/{id}/v/package of a 1,000-file package, ${PACKAGE_RATE} req/s evenly spaced`);
    const seeded = JSON.parse(await run(TSX, [join(REPO_ROOT, 'test/bench/transfer-package-seed.ts')], tableEnv)) as {
      transferId: string;
      token: string;
    };
    const packageLoad = (rate: number, seconds: number) =>
      steadyLoad({
        url: apiUrl,
        rate,
        seconds,
        path: () => `/api/i/transfer/transfer/${seeded.transferId}/v/package`,
        headers: { cookie: `ssoat=${seeded.token}` },
      });
    await packageLoad(PACKAGE_RATE, 5);
    // 30 s: a p99 of 300 answers, not of 100, where it would be the second slowest answer alone.
    const steady = await packageLoad(PACKAGE_RATE, 30);
    print(
      `  ${steady.rate.toFixed(0)} req/s of 370 KB answers: p50 ${steady.p50} ms, p99 ${steady.p99} ms, errors ${steady.errors}; p99 (target <= 50 ms): ${verdict(steady.p99 <= 50 && steady.errors === 0)}`,
    );
    const saturated = await autocannon({
      url: `${apiUrl}/api/i/transfer/transfer/${seeded.transferId}/v/package`,
      headers: { cookie: `ssoat=${seeded.token}` },
      connections: 32,
      duration: 10,
    });
    print(
      `  for reference, the most this machine answers (autocannon, 32 connections): ${saturated.requests.average.toFixed(0)} req/s, p99 ${saturated.latency.p99} ms (five DynamoDB Local reads per answer, in two rounds)`,
    );
  } finally {
    await stopChild(server.child);
  }
}

/**
 * The Pro plan's checkout on `npm start` and its local payment gateway: the whole flow a buyer's
 * browser drives (the invoice, then paying it), one buyer after another, and 50 concurrent
 * payments of one invoice, which must charge once.
 */
async function benchCheckoutOnNpmStart(): Promise<void> {
  const { server, port, printed, dynamoDbEndpoint } = await startEmptyProduct('payments-data');
  try {
    const gatewayEndpoint = printed(
      /Payment gateway \(Braintree's sandbox, locally\) at (\S+)/,
      "the payment gateway's endpoint",
    );
    heading('Pro plan checkout (invoice, pay, fulfil) against the local payment gateway');
    const result = JSON.parse(
      await run(TSX, [join(REPO_ROOT, 'test/bench/checkout.ts')], {
        ...lambdaEnv,
        DYNAMODB_ENDPOINT: dynamoDbEndpoint,
        API_URL: `http://127.0.0.1:${port}`,
        PAYMENT_GATEWAY_URL: gatewayEndpoint,
      }),
    ) as {
      runs: number;
      p50Ms: number;
      p99Ms: number;
      concurrent: number;
      statuses: number[];
      subscriptions: number;
      charges: number;
    };
    print(`${result.runs} checkouts one after another: p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms for the whole flow`);
    print(
      `${result.concurrent} concurrent payments of one invoice: answered ${result.statuses.join(', ')}, ${result.subscriptions} subscription, ${result.charges} charge at the gateway (goal: exactly one): ${verdict(result.charges === 1 && result.subscriptions === 1 && result.statuses.every((status) => status === 200))}`,
    );
  } finally {
    await stopChild(server.child);
  }
}

/**
 * The storefront on `npm start`: the cart and the checkout of 200 customers one after another, then
 * the shop and product pages under load and the merchant's dashboard over 10,000 orders.
 */
async function benchStorefrontOnNpmStart(): Promise<void> {
  const { server, port, dynamoDbEndpoint } = await startEmptyProduct('store-data');
  try {
    const apiUrl = `http://127.0.0.1:${port}`;
    heading('Storefront: add to cart, then checkout (cart invoice, pay, fulfil) against the local payment gateway');
    const result = JSON.parse(
      await run(TSX, [join(REPO_ROOT, 'test/bench/storefront.ts')], {
        ...lambdaEnv,
        DYNAMODB_ENDPOINT: dynamoDbEndpoint,
        API_URL: apiUrl,
      }),
    ) as {
      runs: number;
      addToCart: { p50Ms: number; p99Ms: number };
      checkout: { p50Ms: number; p99Ms: number };
      orders: number;
      shop: { id: string; handle: string };
      productStockId: string;
      merchantToken: string;
    };
    print(`${result.runs} customers one after another:`);
    print(`  add to cart: p50 ${result.addToCart.p50Ms} ms, p99 ${result.addToCart.p99Ms} ms`);
    print(`  checkout (the cart's invoice, then paying it): p50 ${result.checkout.p50Ms} ms, p99 ${result.checkout.p99Ms} ms`);

    heading('Storefront pages under load: autocannon, 32 connections, 10 s (after a 2 s warm-up)');
    const pages = [
      ['shop page', `/api/i/penpay/merchant/${result.shop.handle}/v`],
      ['shop products', `/api/i/penpay/merchant/${result.shop.handle}/v/feed/products`],
      ['product page', `/api/i/penpay/product/${result.productStockId}/v`],
    ] as const;
    for (const [name, path] of pages) {
      const answered = await load(`${apiUrl}${path}`);
      print(
        `  ${name} (${path.replace(result.shop.handle, '{handle}').replace(result.productStockId, '{productStockId}')}): ${answered.requests.average.toFixed(0)} req/s, p50 ${answered.latency.p50} ms, p99 ${answered.latency.p99} ms, errors ${answered.errors + answered.non2xx}; p99 (target <= 25 ms): ${verdict(answered.latency.p99 <= 25 && answered.errors + answered.non2xx === 0)}`,
      );
    }

    heading(`Merchant dashboard over ${result.orders.toLocaleString('en-US')} orders, 20 req/s evenly spaced`);
    const dashboard = (seconds: number) =>
      steadyLoad({
        url: apiUrl,
        rate: 20,
        seconds,
        path: () => '/api/i/penpay/merchant/me/v/screen/dashboard',
        headers: { cookie: `ssoat=${result.merchantToken}` },
      });
    await dashboard(3);
    const steady = await dashboard(10);
    print(
      `  p50 ${steady.p50} ms, p99 ${steady.p99} ms, errors ${steady.errors} (after the session, one round of reads of precomputed figures, whatever the orders); p99 (target <= 50 ms): ${verdict(steady.p99 <= 50 && steady.errors === 0)}`,
    );
  } finally {
    await stopChild(server.child);
  }
}

/** Analytics ingestion on `npm start`: 16 senders post batches of 50 events, as mixpanel-browser does, for 10 s. */
async function benchAnalyticsOnNpmStart(): Promise<void> {
  const { server, port } = await startEmptyProduct('analytics-data');
  try {
    heading("Analytics ingestion: batches of 50 events (mixpanel-browser's form), 16 senders, 10 s");
    const result = JSON.parse(
      await run(TSX, [join(REPO_ROOT, 'test/bench/analytics-ingest.ts')], { API_URL: `http://127.0.0.1:${port}` }),
    ) as { eventsPerSecond: number; p50Ms: number; p99Ms: number; batches: number; errors: number };
    print(
      `  ${result.eventsPerSecond} events/s accepted (${result.batches} batches, ${result.errors} errors), p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms; events/s (target >= 5,000): ${verdict(result.eventsPerSecond >= 5_000 && result.errors === 0)}`,
    );
  } finally {
    await stopChild(server.child);
  }
}

/**
 * A crawler-visible topic page on `npm start` (200 publications): time to first byte with 20
 * clients for 10 s, as the edge serves it (its 60 s cache, as CloudFront's) and with the cache
 * off, every request rendered.
 */
async function benchCrawlerPageOnNpmStart(): Promise<void> {
  for (const edgeCache of ['on', 'off'] as const) {
    heading(`A crawler-visible topic page: time to first byte, 20 clients, 10 s, edge cache ${edgeCache}`);
    const port = await findFreePort();
    const server = await startUntil(process.execPath, LOCAL_START, /Rankings are up to date/, {
      DATA_DIR: join(workDir, `crawler-data-${edgeCache}`),
      PORT: String(port),
      SEED_PUBLICATIONS: '200',
      LOCAL_EDGE_CACHE: edgeCache,
    });
    try {
      const result = await benchCrawlerPage({ origin: `http://127.0.0.1:${port}`, durationMs: 10_000, concurrency: 20 });
      print(
        `  ${result.requests} pages: TTFB p50 ${result.ttfbP50Ms} ms, p99 ${result.ttfbP99Ms} ms; p99 (target <= 25 ms): ${verdict(result.ttfbP99Ms <= 25)}`,
      );
    } finally {
      await stopChild(server.child);
    }
  }
}

const sections = chosenSections(process.argv.slice(2));
try {
  if (sections.has('api') || sections.has('web') || sections.has('stories') || sections.has('transfers'))
    await ensureWebBuilt({ log: print });
  const bundles = sections.has('bundles') ? await benchBundles(workDir) : undefined;
  if (sections.has('job')) await benchRankingJob(await functionBundle('ranking/rank-publications', bundles));
  if (sections.has('fanout')) await benchNotificationFanOut();
  if (sections.has('hot-items')) await benchHotItems();
  if (sections.has('job-scale')) await benchJobScale({ workDir, tsx: TSX, repoRoot: REPO_ROOT, env: lambdaEnv });
  if (sections.has('api') || sections.has('web')) await benchApi({ api: sections.has('api'), web: sections.has('web'), bundles });
  if (sections.has('pages')) await benchPublicationPages();
  if (sections.has('stories')) await benchStoriesOnNpmStart();
  if (sections.has('transfers')) await benchTransfersOnNpmStart();
  // 'transfers' takes in the package page too; 'package' measures it alone.
  if (sections.has('transfers') || sections.has('package')) await benchPackageOnNpmStart();
  if (sections.has('payments')) await benchCheckoutOnNpmStart();
  if (sections.has('store')) await benchStorefrontOnNpmStart();
  if (sections.has('analytics')) await benchAnalyticsOnNpmStart();
  if (sections.has('crawler')) await benchCrawlerPageOnNpmStart();
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
