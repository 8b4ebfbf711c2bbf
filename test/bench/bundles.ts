/**
 * The Lambda bundles' budget: size, and import time as Lambda's init pays it (a fresh `node`
 * importing index.mjs), judged against a reference bundle built with the same options in the
 * same run, so the machine's speed and load cancel out of the verdict.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleFunctions, type BundleResult, handlerEntryPoints } from '../../infra/build/bundle-functions';
import { type DeploymentSettings, environmentFor } from '../../infra/function-environment';
import { ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { LOCAL_TABLE_NAME, REPO_ROOT } from '../../infra/local/runtime';
import type { Capabilities } from '../../shared/capabilities';
import { EVERY_FUNCTION } from '../../shared/functions';
import { routeEntries } from '../../shared/routes/index';
import { heading, median, print, run, verdict } from './support';

const BUNDLE_LIMIT_KB = 700;
const IMPORT_RATIO_LIMIT = 1.5;
const REFERENCE = 'reference';
/** Fresh-process imports of every bundle for the table; BENCH_IMPORT_RUNS trades time for noise. */
const IMPORT_RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 7);
/** More runs for the two bundles the verdict compares: a shared machine is noisy. */
const VERDICT_RUNS = Number(process.env.BENCH_VERDICT_RUNS ?? 21);
/** Handlers whose first request (import, then one call against DynamoDB Local) is timed too. */
const COLD_REQUEST_HANDLERS = ['platform/get-health', 'ranking/get-publication'];

/** What Lambda's runtime puts in every function's environment, plus what the bench needs. */
const RUNTIME_ENV: Readonly<Record<string, string>> = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
  AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
  POWERTOOLS_LOG_LEVEL: 'ERROR',
  POWERTOOLS_METRICS_DISABLED: 'true',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/** A deployment as CDK builds it, so each bundle runs with its own function's environment. */
const DEPLOYMENT: DeploymentSettings = {
  common: {
    STAGE: 'bench',
    TABLE_NAME: LOCAL_TABLE_NAME,
    ALLOWED_ORIGINS: 'http://localhost:3000',
    WEB_ORIGIN: 'http://localhost:3000',
    REALTIME_URL: 'wss://realtime.example/bench',
  },
  email: { MAIL_FROM: 'TopPubs <login@toppubs.example>' },
  bucket: { FILE_BUCKET_NAME: 'toppubs-bench-files' },
  payments: { PAYMENT_GATEWAY: 'local', PAYMENT_GATEWAY_URL: 'http://127.0.0.1:9/bench' },
  queues: {
    'source-collection': { SOURCE_COLLECTION_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench.fifo' },
    'notification-fanout': { NOTIFICATION_FANOUT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench' },
    'publication-digest': { PUBLICATION_DIGEST_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-digest' },
  },
  realtime: { REALTIME_MANAGEMENT_ENDPOINT: 'http://127.0.0.1:9/__local/realtime' },
  settings: {},
};

/** Each bundle's environment: its function's own, as CDK sets it; the reference's is minimal. */
function environments(extra: Readonly<Record<string, string>> = {}): (name: string) => Record<string, string> {
  const capabilities = new Map<string, Capabilities>(EVERY_FUNCTION.map((entry) => [entry.handler, entry.capabilities]));
  return (name) => {
    const declared = capabilities.get(name);
    if (name === REFERENCE || !declared) return { ...RUNTIME_ENV, TABLE_NAME: LOCAL_TABLE_NAME, ...extra };
    return {
      ...RUNTIME_ENV,
      POWERTOOLS_SERVICE_NAME: name.split('/')[0] ?? name,
      ...environmentFor(declared, DEPLOYMENT),
      ...extra,
    };
  };
}

/** Milliseconds from the start of the import to the end of `then` (nothing more by default). */
async function timeFreshProcess(file: string, env: Record<string, string>, then = ''): Promise<number> {
  const script = `const t=performance.now();const m=await import(${JSON.stringify(pathToFileURL(file).href)});${then}console.log(performance.now()-t)`;
  return Number(await run(process.execPath, ['--input-type=module', '-e', script], env, { quiet: true }));
}

/**
 * Rounds interleave the bundles, so a burst of load on the machine hits them all alike;
 * returns each bundle's samples, round by round.
 */
async function rounds(
  names: readonly string[],
  runs: number,
  measure: (name: string) => Promise<number>,
): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(names.map((name) => [name, []]));
  for (let round = 0; round < runs; round += 1) {
    for (const name of names) samples.get(name)?.push(await measure(name));
  }
  return samples;
}

/** Each bundle's median over interleaved rounds (see rounds). */
async function medians(
  names: readonly string[],
  runs: number,
  measure: (name: string) => Promise<number>,
): Promise<Map<string, number>> {
  const samples = await rounds(names, runs, measure);
  return new Map([...samples].map(([name, values]) => [name, median(values)]));
}

/** An API Gateway v2 GET without a session, which is what most first requests are. */
function firstCall(handler: string): string {
  const route = routeEntries.find(([, candidate]) => candidate.handler === handler)?.[1];
  if (!route) throw new Error(`No route is served by ${handler}`);
  const path = route.path.replace(/\{[A-Za-z0-9_]+\}/g, 'bench-probe');
  const pathParameters = Object.fromEntries(
    [...route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((match) => [match[1], 'bench-probe']),
  );
  const event = {
    version: '2.0',
    routeKey: `GET ${route.path}`,
    rawPath: path,
    rawQueryString: '',
    headers: { host: 'localhost', 'user-agent': 'bench', accept: 'application/json' },
    ...(Object.keys(pathParameters).length > 0 ? { pathParameters } : {}),
    isBase64Encoded: false,
    requestContext: {
      accountId: 'bench',
      apiId: 'bench',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: 'bench',
      routeKey: `GET ${route.path}`,
      stage: '$default',
      time: '01/Jan/2026:00:00:00 +0000',
      timeEpoch: 1_767_225_600_000,
    },
  };
  const context =
    '{functionName:"bench",functionVersion:"$LATEST",invokedFunctionArn:"arn:aws:lambda:us-east-1:000000000000:function:bench",' +
    'memoryLimitInMB:"256",awsRequestId:"bench",logGroupName:"bench",logStreamName:"bench",callbackWaitsForEmptyEventLoop:true,' +
    'getRemainingTimeInMillis:()=>10000,done(){},fail(){},succeed(){}}';
  // A 500 would mean the call broke rather than answered; 503 (no rankings yet) is an answer.
  return `const r=await m.handler(${JSON.stringify(event)},${context});if(r.statusCode===500)throw new Error(r.body);`;
}

/**
 * What a user waits for on a cold start: the import and then the first call, which builds the
 * clients and reads DynamoDB Local. The reference does its one GetItem.
 */
async function benchColdRequests(bundles: ReadonlyMap<string, BundleResult>): Promise<void> {
  const dynamo = await startDynamoDbLocal();
  try {
    await ensureTable(dynamo.endpoint, LOCAL_TABLE_NAME);
    const envOf = environments({ DYNAMODB_ENDPOINT: dynamo.endpoint, AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint });
    const names = [REFERENCE, ...COLD_REQUEST_HANDLERS];
    const calls = new Map(names.map((name) => [name, name === REFERENCE ? 'await m.handler({});' : firstCall(name)]));
    const times = await medians(names, IMPORT_RUNS, (name) =>
      timeFreshProcess(bundles.get(name)?.file as string, envOf(name), calls.get(name)),
    );
    const referenceMs = times.get(REFERENCE) ?? Number.NaN;
    print(`cold request (import, then the first call on DynamoDB Local), median of ${IMPORT_RUNS}:`);
    for (const name of names) {
      const ms = times.get(name) ?? Number.NaN;
      print(`  ${name.padEnd(32)} ${`${ms.toFixed(0)} ms`.padStart(9)} ${(ms / referenceMs).toFixed(2).padStart(6)}`);
    }
  } finally {
    await dynamo.stop();
  }
}

/** Bundles every handler plus the reference, prints the table and verdicts; returns handler -> file. */
export async function benchBundles(workDir: string): Promise<Map<string, string>> {
  heading('Lambda bundles (minified ESM, AWS SDK bundled): size and cold import');
  const results = await bundleFunctions({
    outDir: join(workDir, 'bundles'),
    entries: [...handlerEntryPoints(), { name: REFERENCE, entry: join(REPO_ROOT, 'test/bench/reference-handler.ts') }],
  });
  const bundles = new Map(results.map((result) => [result.name, result]));
  const envOf = environments();
  const importOf = (name: string) => timeFreshProcess(bundles.get(name)?.file as string, envOf(name));

  const times = await medians([...bundles.keys()], IMPORT_RUNS, importOf);
  const referenceMs = times.get(REFERENCE) ?? Number.NaN;
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  print(`median of ${IMPORT_RUNS} fresh-process imports each; ratio = import time / the reference's`);
  print(
    'bundle = what importing index.mjs loads (it and the chunks it imports); asset = its folder as CDK uploads it, the chunks loaded on first use included',
  );
  print(`${'bundle'.padEnd(36)} ${'bundle'.padStart(10)} ${'asset'.padStart(10)} ${'import'.padStart(9)} ${'ratio'.padStart(6)}`);
  for (const result of [...results].sort((a, b) => b.importBytes - a.importBytes)) {
    const ms = times.get(result.name) ?? Number.NaN;
    const label = result.name === REFERENCE ? `${REFERENCE} (DocumentClient, GetItem)` : result.name;
    print(
      `${label.padEnd(36)} ${kb(result.importBytes).padStart(10)} ${kb(result.bytes).padStart(10)} ${`${ms.toFixed(0)} ms`.padStart(9)} ${(ms / referenceMs).toFixed(2).padStart(6)}`,
    );
  }

  // The largest handler is the one whose import compiles the most. Its ratio is the median of
  // the ratios of back-to-back pairs (reference, then it), so a burst of load on the machine
  // moves both sides of a ratio alike; the medians of each side are printed beside it.
  const handlers = results.filter((result) => result.name !== REFERENCE);
  const largest = handlers.reduce((a, b) => (b.importBytes > a.importBytes ? b : a));
  const pairs = await rounds([REFERENCE, largest.name], VERDICT_RUNS, importOf);
  const referenceSamples = pairs.get(REFERENCE) ?? [];
  const largestSamples = pairs.get(largest.name) ?? [];
  const ratio = median(largestSamples.map((ms, round) => ms / (referenceSamples[round] ?? Number.NaN)));
  print(
    `largest handler (${largest.name}, ${kb(largest.importBytes)}) ${median(largestSamples).toFixed(0)} ms vs reference ` +
      `${median(referenceSamples).toFixed(0)} ms (medians of ${VERDICT_RUNS} alternating runs each); ` +
      `median of the ${VERDICT_RUNS} runs' ratios ${ratio.toFixed(2)}x (target <= ${IMPORT_RATIO_LIMIT}x): ${verdict(ratio <= IMPORT_RATIO_LIMIT)}`,
  );
  const overBundles = handlers.filter((result) => result.importBytes > BUNDLE_LIMIT_KB * 1024).length;
  print(
    `largest bundle ${kb(largest.importBytes)} (${largest.name}), ${overBundles} of ${handlers.length} over ` +
      `${BUNDLE_LIMIT_KB} KB (target: none over ${BUNDLE_LIMIT_KB} KB): ${verdict(overBundles === 0)}`,
  );
  const largestAsset = handlers.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const overAssets = handlers.filter((result) => result.bytes > BUNDLE_LIMIT_KB * 1024).length;
  print(
    `for reference, whole assets (the chunks loaded on first use included): largest ${kb(largestAsset.bytes)} (${largestAsset.name}), ` +
      `${overAssets} over ${BUNDLE_LIMIT_KB} KB`,
  );

  await benchColdRequests(bundles);
  return new Map(handlers.map((result) => [result.name, result.file]));
}
