/**
 * Lambda runs the esbuild bundles (infra/build/bundle-functions.ts, with the plugin that rewrites
 * the schema modules), while the local runtime and every other test run the TypeScript sources.
 * Here every function CDK deploys (shared/functions.ts: routes, jobs, queue consumers, WebSocket
 * handlers) is built as CDK builds it, imported in a fresh Node with the environment its
 * capabilities give it in AWS, and called once with an event it must refuse or answer; its
 * source, run as the local runtime runs it, gets the same event, and both answers must be the
 * same. A bundle that fails at import, or whose schemas mean something else, fails here.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bundleFunctions, type BundleResult, REPO_ROOT } from '../../infra/build/bundle-functions';
import { type DeploymentSettings, environmentFor } from '../../infra/function-environment';
import { ensureTable } from '../../infra/local/dynamodb-local';
import { newUserItem } from '../../functions/lib/accounts';
import { createDocumentClient } from '../../functions/lib/db/client';
import { createDb } from '../../functions/lib/db/service';
import { createSession } from '../../functions/lib/sessions';
import type { Capabilities } from '../../shared/capabilities';
import {
  APPLICATION_ID_HEADER,
  EDGE_ORIGIN_TOKEN_HEADER,
  SESSION_HEADER,
  VIEWER_ADDRESS_HEADER,
  WEB_APPLICATION_ID,
} from '../../shared/constants';
import { EVERY_FUNCTION, type FunctionEntry } from '../../shared/functions';
import { WORK_QUEUES } from '../../shared/queues';
import { REALTIME_HANDLERS } from '../../shared/realtime';
import { accessLevels, noParams, noQuery, pathParamNames, type RouteDefinition, routeEntries } from '../../shared/routes/index';
import { undeclaredDependencies } from '../support/bundle-dependencies';
import { jsonSchemaOf } from '../support/fuzz/schema-arbitrary';

const run = promisify(execFile);

const ORIGIN = 'https://toppubs.example';
const EDGE_TOKEN = 'bundle-proof-edge-token';
const RUNNER = join(REPO_ROOT, 'test/infra/fixtures/invoke-functions.mjs');
/** Fixed, so the bundle and its source get the very same event. */
const EPOCH = Date.UTC(2026, 0, 15, 12, 0, 0);
const CALL_TIMEOUT_MS = 20_000;
const SUPERUSER_ID = '00000000-0000-4000-8000-00000000b0b1';
/**
 * Processes the route bundles are shared among, side by side, each importing its share in turn:
 * a process per bundle would cost a Node start each. Bundles share no module today, so each is
 * as alone in its process as in Lambda; were they built with shared chunks, a chunk would load
 * once per process, with the environment of the first function that imports it.
 */
const BUNDLE_PROCESSES = 2;
/** What a cold start may compile: index.mjs and the chunks it imports statically (the bundles bench's budget). */
const IMPORT_BYTES_LIMIT = 700 * 1024;
const ANALYTICS_BUCKET = 'toppubs-bundle-proof-analytics';
const EMPTY_LISTING =
  '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
  `<Name>${ANALYTICS_BUCKET}</Name><KeyCount>0</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated></ListBucketResult>`;

interface Answer {
  outcome: 'returned' | 'threw' | 'timeout';
  value?: unknown;
  error?: unknown;
}

/** What invoke-functions.mjs reports of one function. */
interface Invocation {
  name: string;
  imported: boolean;
  /** Why the import failed. */
  error?: unknown;
  importMs: number;
  callMs?: number;
  /** One per event, in order. */
  answers: Answer[];
  /** Errors thrown outside any call's promise while it ran (unhandled rejections). */
  stray: unknown[];
}

interface Call {
  name: string;
  module: string;
  source: boolean;
  env: Record<string, string>;
  capabilities: Capabilities;
  events: unknown[];
  timeoutMs: number;
}

/**
 * The deployment as infra/cdk/platform.ts builds it, with values for this machine: the table in
 * DynamoDB Local, and every other AWS endpoint at `awsEndpoint` (startAwsStandIn), so no call leaves the machine.
 */
function deploymentFor(tableName: string, dynamoEndpoint: string, awsEndpoint: string, entry: FunctionEntry): DeploymentSettings {
  // The realtime stack's functions get the deployment before the WebSocket API exists (platform.ts).
  const realtime = entry.kind === 'realtime';
  return {
    common: {
      STAGE: 'bundle-proof',
      TABLE_NAME: tableName,
      ALLOWED_ORIGINS: ORIGIN,
      WEB_ORIGIN: ORIGIN,
      EDGE_ORIGIN_TOKEN: EDGE_TOKEN,
      ...(realtime ? {} : { REALTIME_URL: 'wss://realtime.toppubs.example/bundle-proof' }),
      // Not in AWS: where this machine's table is.
      DYNAMODB_ENDPOINT: dynamoEndpoint,
    },
    email: { MAIL_FROM: 'TopPubs <login@toppubs.example>', MAIL_CONFIGURATION_SET: 'toppubs-bundle-proof' },
    bucket: { FILE_BUCKET_NAME: 'toppubs-bundle-proof-files' },
    realtime: realtime ? {} : { REALTIME_MANAGEMENT_ENDPOINT: `${awsEndpoint}/bundle-proof` },
    payments: {
      PAYMENT_GATEWAY: 'braintree',
      BRAINTREE_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:braintree-AbCdEf',
    },
    merchantKeys: {
      MERCHANT_KEYS: 'kms',
      MERCHANT_KEYS_KMS_KEY_ARN: 'arn:aws:kms:us-east-1:000000000000:key/00000000-0000-0000-0000-000000000000',
    },
    analytics: { ANALYTICS_BUCKET_NAME: ANALYTICS_BUCKET, ANALYTICS_STREAM_NAME: 'toppubs-bundle-proof-events' },
    queues: realtime
      ? {}
      : Object.fromEntries(
          WORK_QUEUES.map((queue) => [
            queue.name,
            { [queue.urlVariable]: `${awsEndpoint}/000000000000/${queue.name}${queue.fifo ? '.fifo' : ''}` },
          ]),
        ),
    settings: {},
  };
}

/** What Lambda's runtime sets in every function's process, and what CDK adds (handler-function.ts). */
function environmentOf(entry: FunctionEntry, deployment: DeploymentSettings, awsEndpoint: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TZ: 'UTC',
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bundle-proof',
    AWS_SECRET_ACCESS_KEY: 'bundle-proof',
    AWS_SESSION_TOKEN: 'bundle-proof',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    AWS_LAMBDA_FUNCTION_NAME: entry.name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '256',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    // Not in AWS: every AWS call but DynamoDB's (which has DYNAMODB_ENDPOINT) goes to the stand-in.
    AWS_ENDPOINT_URL: awsEndpoint,
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    POWERTOOLS_SERVICE_NAME: entry.handler.split('/')[0] ?? entry.handler,
    ...environmentFor(entry.capabilities, deployment),
  };
}

const takesNoBody = (route: RouteDefinition) => route.body.safeParse(undefined).success && !route.body.safeParse({}).success;

/** A value no field of ours accepts: an object holding an array holding null. */
const SPOILER = { probe: [null] };

/** A body every field of which is of the wrong type, so the 400 names each field's own message. */
function spoiledBody(route: RouteDefinition): unknown {
  const properties = jsonSchemaOf(route.body).properties;
  if (!properties) return SPOILER;
  return Object.fromEntries(Object.keys(properties).map((name) => [name, SPOILER]));
}

/** Each path parameter's value: its schema's first choice where it has a list, else a word no id is. */
function pathParametersOf(route: RouteDefinition): Record<string, string> | undefined {
  const names = pathParamNames(route.path);
  if (names.length === 0) return undefined;
  const schemas = jsonSchemaOf(route.params).properties ?? {};
  return Object.fromEntries(
    names.map((name) => {
      const first = schemas[name]?.enum?.[0];
      return [name, typeof first === 'string' ? first : 'probe'];
    }),
  );
}

/** An API Gateway HTTP API (v2) event, as infra/local/api-server.ts builds one, through CloudFront. */
function httpEvent(route: RouteDefinition, body: unknown, sessionToken?: string): Record<string, unknown> {
  const pathParameters = pathParametersOf(route) ?? {};
  const rawPath = route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_match, name: string) =>
    encodeURIComponent(pathParameters[name] as string),
  );
  const routeKey = `${route.method} ${route.path}`;
  const headers: Record<string, string> = {
    host: 'api.toppubs.example',
    'user-agent': 'bundle-proof',
    accept: 'application/json',
    origin: ORIGIN,
    [EDGE_ORIGIN_TOKEN_HEADER]: EDGE_TOKEN,
    [VIEWER_ADDRESS_HEADER]: '203.0.113.7',
    ...(route.stateChanging ? { [APPLICATION_ID_HEADER]: WEB_APPLICATION_ID } : {}),
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  };
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString: '',
    headers,
    ...(Object.keys(pathParameters).length > 0 ? { pathParameters } : {}),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(sessionToken === undefined ? {} : { cookies: [`${SESSION_HEADER}=${sessionToken}`] }),
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'bundleproof',
      domainName: 'api.toppubs.example',
      domainPrefix: 'api',
      http: { method: route.method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '198.51.100.1', userAgent: 'bundle-proof' },
      requestId: 'bundle-proof-request',
      routeKey,
      stage: '$default',
      time: '15/Jan/2026:12:00:00 +0000',
      timeEpoch: EPOCH,
    },
  };
}

function webSocketEvent(routeKey: string, extra: Record<string, unknown>): Record<string, unknown> {
  const eventType = routeKey === '$connect' ? 'CONNECT' : routeKey === '$disconnect' ? 'DISCONNECT' : 'MESSAGE';
  return {
    isBase64Encoded: false,
    ...extra,
    requestContext: {
      routeKey,
      eventType,
      ...(eventType === 'MESSAGE' ? { messageId: 'bundle-proof-message' } : {}),
      extendedRequestId: 'bundle-proof-request',
      requestTimeEpoch: EPOCH,
      requestTime: new Date(EPOCH).toUTCString(),
      messageDirection: 'IN',
      stage: 'bundle-proof',
      connectedAt: EPOCH,
      requestId: 'bundle-proof-request',
      domainName: 'realtime.toppubs.example',
      connectionId: 'bundle-proof-connection=',
      apiId: 'bundleproof',
      identity: { sourceIp: '198.51.100.1' },
    },
  };
}

/** One event a function is sent, and what it must answer besides answering as its source does. */
interface Probe {
  event: unknown;
  /** The answer's status; for the queue consumer, the answer itself. */
  expected?: { statusCode: number } | { value: unknown };
}

const ROUTES = new Map<string, RouteDefinition>(routeEntries);

/**
 * Whether the request pipeline refuses this input before the handler runs (functions/lib/http/
 * parse-input.ts), judged with the source's own schemas: then a caller who may call the route
 * gets a 400 naming every field, and nothing is done.
 */
function refusesInput(route: RouteDefinition, pathParameters: Record<string, string> | undefined, body: unknown): boolean {
  const params =
    route.params === noParams && pathParameters === undefined ? true : route.params.safeParse(pathParameters ?? {}).success;
  const query = route.query === noQuery ? true : route.query.safeParse({}).success;
  return !(params && query && route.body.safeParse(body).success);
}

/** The events each function is sent; `sessionToken` is a superuser's session in the function's table. */
function probesFor(entry: FunctionEntry, sessionToken: string): Probe[] {
  if (entry.kind === 'route') {
    const route = ROUTES.get(entry.name) as RouteDefinition;
    const levels = accessLevels(route.access);
    const body = takesNoBody(route) ? undefined : spoiledBody(route);
    if (levels.includes('public'))
      return [{ event: httpEvent(route, body), ...(body === undefined ? {} : { expected: { statusCode: 400 } }) }];
    const probes: Probe[] = [{ event: httpEvent(route, undefined), expected: { statusCode: 401 } }];
    // Signed in, the same spoiled input reaches the route's schemas, which must refuse it as the source's do.
    const byUser = levels.includes('user') || levels.includes('superuser');
    if (byUser && refusesInput(route, pathParametersOf(route), body))
      probes.push({ event: httpEvent(route, body, sessionToken), expected: { statusCode: 400 } });
    return probes;
  }
  if (entry.kind === 'realtime') {
    const routeKey = REALTIME_HANDLERS.find((handler) => handler.name === entry.name)?.routeKey ?? '$default';
    if (routeKey === '$connect')
      return [{ event: webSocketEvent(routeKey, { headers: { origin: ORIGIN } }), expected: { statusCode: 401 } }];
    if (routeKey === '$disconnect') return [{ event: webSocketEvent(routeKey, {}), expected: { statusCode: 200 } }];
    return [{ event: webSocketEvent(routeKey, { body: '{"action":"ping"}' }), expected: { statusCode: 200 } }];
  }
  if (entry.kind === 'queue-consumer') {
    // One message no batch schema accepts: logged and dropped, not retried.
    const record = {
      messageId: 'bundle-proof-message',
      receiptHandle: 'bundle-proof-receipt',
      body: '{"probe":[null]}',
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(EPOCH),
        SenderId: '000000000000',
        ApproximateFirstReceiveTimestamp: String(EPOCH),
        MessageGroupId: 'bundle-proof',
        MessageDeduplicationId: 'bundle-proof',
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:bundle-proof.fifo',
      awsRegion: 'us-east-1',
    };
    return [{ event: { Records: [record] }, expected: { value: { batchItemFailures: [] } } }];
  }
  return [
    {
      event: {
        version: '0',
        id: 'bundle-proof-run',
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        account: '000000000000',
        time: new Date(EPOCH).toISOString(),
        region: 'us-east-1',
        resources: [`arn:aws:events:us-east-1:000000000000:rule/${entry.name}`],
        detail: {},
      },
    },
  ];
}

/**
 * Every AWS endpoint but DynamoDB's, for this test: an empty analytics bucket (the analytics
 * job lists it and writes its aggregates, path-style as the SDK addresses an IP endpoint), and a
 * dropped connection for any other call, so none leaves the machine.
 */
async function startAwsStandIn(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const bucket = `/${ANALYTICS_BUCKET}/`;
    request.resume();
    if (request.method === 'GET' && url.pathname === bucket && url.searchParams.get('list-type') === '2') {
      response.writeHead(200, { 'content-type': 'application/xml' }).end(EMPTY_LISTING);
    } else if (request.method === 'PUT' && url.pathname.startsWith(`${bucket}aggregates/`)) {
      request.on('end', () => response.writeHead(200, { etag: '"bundle-proof"' }).end());
    } else {
      request.socket.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The AWS stand-in has no port');
  return { url: `http://127.0.0.1:${address.port}`, server };
}

/** CPU milliseconds each runner used, for the duration line. */
const runnerCpuMs: Record<string, number> = {};

/** Runs `calls` in one fresh Node (with tsx for the sources) and returns its results. */
async function invokeAll(workDir: string, label: string, calls: Call[], withTsx: boolean): Promise<Invocation[]> {
  const callsFile = join(workDir, `${label}-calls.json`);
  const resultsFile = join(workDir, `${label}-results.json`);
  writeFileSync(callsFile, JSON.stringify(calls));
  await run(process.execPath, [...(withTsx ? ['--import', 'tsx'] : []), RUNNER, callsFile, resultsFile], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    // The functions' own output (metrics, logs) is not looked at, only kept from blocking.
    maxBuffer: 256 * 1024 * 1024,
  });
  const { results, cpuMs } = JSON.parse(readFileSync(resultsFile, 'utf8')) as { results: Invocation[]; cpuMs: number };
  runnerCpuMs[label] = cpuMs;
  return results;
}

/** What may differ between two runs of one function: the clock, and what is made from it (a run id, an etag). */
function comparable(invocation: Invocation | undefined): unknown {
  if (!invocation) return undefined;
  const { imported, error, answers } = invocation;
  const text = JSON.stringify({ imported, error, answers }, (key, value: unknown) => (key === 'etag' ? '<etag>' : value));
  // ISO times and run ids, and the RFC 1123 dates of an RSS feed (lastBuildDate, pubDate).
  return JSON.parse(
    text
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z(?:~[0-9a-f]+)?/g, '<time>')
      .replace(/[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT/g, '<time>'),
  ) as unknown;
}

/** A superuser and a session of theirs in the table; returns the session's token. */
async function signInSuperuser(dynamoEndpoint: string, tableName: string): Promise<string> {
  const db = createDb(createDocumentClient({ endpoint: dynamoEndpoint, region: 'us-east-1' }), tableName);
  const timestamp = new Date(EPOCH).toISOString();
  // The same user in both tables, so an answer that names them is the same from both.
  const user = { ...newUserItem({ username: 'bundleproof', timestamp }), userId: SUPERUSER_ID, isSuperUser: true };
  await db.entities.user.create(user).go();
  return (await createSession(db, user.userId)).token;
}

describe('every function as deployed: its Lambda bundle imports and answers as its source does', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'toppubs-every-bundle-'));
  let aws: { url: string; server: Server } | undefined;
  const bundled = new Map<string, Invocation>();
  const builds = new Map<string, BundleResult>();
  const sources = new Map<string, Invocation>();
  /** What each function must answer to each of its events (the same whichever table's session). */
  const expectations = new Map(EVERY_FUNCTION.map((entry) => [entry.name, probesFor(entry, '').map((probe) => probe.expected)]));
  // The jobs, consumers and WebSocket handlers first, on the empty table; then the routes, so the
  // public reads find the boards the ranking jobs made.
  const ordered = [
    ...EVERY_FUNCTION.filter((entry) => entry.kind !== 'route'),
    ...EVERY_FUNCTION.filter((entry) => entry.kind === 'route'),
  ];

  beforeAll(async () => {
    const started = performance.now();
    const standIn = await startAwsStandIn();
    aws = standIn;
    const dynamoEndpoint = inject('dynamoEndpoint');
    const suffix = Date.now().toString(36);
    /** A table of the runner's own, with a signed-in superuser, and the calls for it. */
    const callsFor = async (label: string, module: (entry: FunctionEntry) => string): Promise<Call[]> => {
      const tableName = `${label}-${suffix}`;
      await ensureTable(dynamoEndpoint, tableName);
      const sessionToken = await signInSuperuser(dynamoEndpoint, tableName);
      return ordered.map((entry) => ({
        name: entry.name,
        module: pathToFileURL(module(entry)).href,
        source: false,
        env: environmentOf(entry, deploymentFor(tableName, dynamoEndpoint, standIn.url, entry), standIn.url),
        capabilities: entry.capabilities,
        events: probesFor(entry, sessionToken).map((probe) => probe.event),
        timeoutMs: CALL_TIMEOUT_MS,
      }));
    };

    // The sources need no build: they run while the bundles are built.
    const fromSources = (async () => {
      const calls = await callsFor('sources', (entry) => join(REPO_ROOT, 'functions', `${entry.handler}.ts`));
      return invokeAll(
        workDir,
        'sources',
        calls.map((call) => ({ ...call, source: true })),
        true,
      );
    })();
    let builtAt = 0;
    const fromBundles = (async () => {
      // Built as CDK builds them (infra/cdk/app.ts): every function at once, the default options.
      const bundles = await bundleFunctions({ outDir: join(workDir, 'bundles'), analyze: true });
      builtAt = performance.now();
      for (const bundle of bundles) builds.set(bundle.name, bundle);
      const files = new Map(bundles.map((bundle) => [bundle.name, bundle.file]));
      const calls = await callsFor('bundles', (entry) => files.get(entry.handler) as string);
      const routeNames = new Set(routeEntries.map(([name]) => name as string));
      const first = await invokeAll(
        workDir,
        'bundles-first',
        calls.filter((call) => !routeNames.has(call.name)),
        false,
      );
      const routeCalls = calls.filter((call) => routeNames.has(call.name));
      const shares = Array.from({ length: BUNDLE_PROCESSES }, (_, share) =>
        routeCalls.filter((_call, index) => index % BUNDLE_PROCESSES === share),
      );
      const more = await Promise.all(shares.map((share, index) => invokeAll(workDir, `bundles-${index}`, share, false)));
      return [...first, ...more.flat()];
    })();
    const [bundleResults, sourceResults] = await Promise.all([fromBundles, fromSources]);
    for (const result of bundleResults) bundled.set(result.name, result);
    for (const result of sourceResults) sources.set(result.name, result);
    if (process.env.EVERY_BUNDLE_TIMINGS) {
      const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
      const cpu = Object.entries(runnerCpuMs).map(([label, ms]) => `${label} ${(ms / 1000).toFixed(1)} s`);
      const events = bundleResults.reduce((sum, result) => sum + result.answers.length, 0);
      console.warn(
        `${bundleResults.length} bundles built in ${seconds(started, builtAt)} s, then imported and sent ${events} events in ` +
          `${seconds(builtAt, performance.now())} s; CPU of each runner: ${cpu.join(', ')}`,
      );
    }
  }, 600_000);

  afterAll(() => {
    aws?.server.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  for (const entry of EVERY_FUNCTION) {
    it(`${entry.kind} ${entry.name} (functions/${entry.handler}.ts)`, () => {
      // Prepare
      const fromBundle = bundled.get(entry.name);
      const expected = expectations.get(entry.name) ?? [];

      // Assess: it imported and answered every event, as its source did, with nothing thrown on the side.
      expect({ imported: fromBundle?.imported, error: fromBundle?.error }).toEqual({ imported: true, error: undefined });
      expect(fromBundle?.answers.map((answer) => answer.outcome)).toEqual(expected.map(() => 'returned'));
      expect(comparable(fromBundle)).toEqual(comparable(sources.get(entry.name)));
      expect(fromBundle?.stray).toEqual([]);
      fromBundle?.answers.forEach((answer, index) => {
        const { statusCode } = (answer.value ?? {}) as { statusCode?: number };
        const wanted = expected[index];
        if (entry.kind === 'route') expect(statusCode).not.toBe(500);
        if (wanted && 'statusCode' in wanted) expect(statusCode, `the answer to event ${index + 1}`).toBe(wanted.statusCode);
        if (wanted && 'value' in wanted) expect(answer.value, `the answer to event ${index + 1}`).toEqual(wanted.value);
      });
    });

    it(`${entry.kind} ${entry.name} carries only what its capabilities declare, and a cold start compiles at most 700 KB`, () => {
      // Prepare
      const build = builds.get(entry.handler);

      // Act
      const undeclared = undeclaredDependencies(entry.capabilities, Object.keys(build?.inputs ?? {})).map(
        (found) => `${found.package} (${found.what}), which only ${found.allowedBy} allows`,
      );

      // Assess
      expect(undeclared).toEqual([]);
      expect(build?.importBytes).toBeGreaterThan(0);
      expect(build?.importBytes).toBeLessThanOrEqual(IMPORT_BYTES_LIMIT);
    });
  }
});
