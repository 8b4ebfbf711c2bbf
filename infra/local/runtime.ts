// First: the functions' Logger and Metrics read these settings when their modules load.
import './powertools-environment';
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, isIP } from 'node:net';
import { join } from 'node:path';
import type { Capabilities } from '../../shared/capabilities';
import { routeEntries } from '../../shared/routes';
import { JOB_SCHEDULES } from '../../shared/schedules';
import { type QueueName, WORK_QUEUES } from '../../shared/queues';
import { type SqsConsumer, startLocalSqs } from './sqs';
import {
  LOCAL_REALTIME_MANAGEMENT_PATH,
  LOCAL_REALTIME_PATH,
  REALTIME_HANDLERS,
  type RealtimeHandler,
} from '../../shared/realtime';
import { createDocumentClient, getDocumentClient } from '../../functions/lib/db/client';
import { createDb, type Db, getDb } from '../../functions/lib/db/service';
import { getConfig } from '../../functions/lib/config';
import { toDay } from '../../functions/ranking/lib/domain/days';
import type { DeploymentSettings } from '../function-environment';
import { type ApiRouterOptions, createApiRouter, type LambdaHttpHandler } from './api-server';
import { functionScope, handlerModuleUrl, lazyFunction, lazyFunctionIn } from './functions';
import { enforceAnalyticsGrants, enforceBucketGrants, enforceTableGrants } from './grants';
import { meterTableUnits, RouteUnitsLog } from './table-units';
import { onFileBucketClient } from '../../functions/lib/files/file-bucket';
import { onAnalyticsClients } from '../../functions/analytics/lib/analytics-clients';
import { eventsPrefix } from '../../functions/analytics/lib/analytics-bucket';
import { startLocalFirehose } from './firehose-local';
import { REPO_ROOT } from './repo-root';
import { ensureTable, startDynamoDbLocal } from './dynamodb-local';
import { createEdgeCache } from './edge-cache';
import { DEMO_SOURCE_ADDRESSES, demoSourceAnswers, startFixtureWeb } from './fixture-web';
import { createMailOutboxPage } from './mail-outbox-page';
import { createLocalRealtime, type WebSocketHandler } from './realtime-server';
import { startLocalOidcProvider } from './oidc-provider';
import { answerUnparsableRequest, answerWhileStarting, createRequestListener, MAX_REQUEST_HEAD_BYTES } from './request-listener';
import { LOCAL_ANALYTICS_BUCKET, LOCAL_BUCKETS, startS3Local } from './s3-local';
import { startLocalPaymentGateway } from './payment-gateway';
import { PRO_PRICES } from '../../shared/transfers/pro-plan';
import { toDecimalAmount } from '../../shared/payments/money';
import { localDemoPlans } from '../../shared/payments/local-gateway';
import { receiveBraintreeWebhook } from '../../shared/routes/subscriptions';
import { type JobHandler, startScheduler } from './scheduler';
import { describeSeed, feedOnlyShare, generateSeedData } from './seed/generate-publications';
import { isTableEmptyOfPublications, type SeedProgress, seedTable } from './seed/seed-table';
import { seedRankHistory } from './seed/seed-rank-history';
import { hasStories, seedSocial } from './seed/seed-social';
import { createStaticServer } from './static-server';

export { REPO_ROOT };
export const LOCAL_TABLE_NAME = 'toppubs-local';
const LOCAL_MAIL_FROM = 'TopPubs <login@toppubs.example>';
/** The analytics delivery stream, as the cloud names its Firehose stream. */
export const LOCAL_ANALYTICS_STREAM = 'toppubs-analytics-events';

export interface LocalRuntimeOptions {
  port: number;
  /**
   * The address the API and web app listen on: loopback unless asked otherwise, because the
   * mail outbox hands its login links to whoever can reach it. DynamoDB Local, the S3 emulator
   * and the mock sign-in provider always stay on loopback.
   */
  host?: string;
  /** Where DynamoDB Local, the S3 emulator and the mail outbox keep their data. */
  dataDir: string;
  /** Keep DynamoDB in memory (tests): nothing survives a stop. */
  inMemory?: boolean;
  /** Seed the demo data set when the table has no publications. */
  seedIfEmpty?: boolean;
  /** Publications in the demo data set (17,000 by default; tests use fewer). */
  seedPublications?: number;
  /** Seed the demo people, stories, follows and likes when the table has no stories yet. */
  seedSocial?: boolean;
  /** Stories in the demo's social data set (300 by default; a quick start asks for fewer). */
  seedStories?: number;
  /** Run the jobs marked runAtLocalStart once the data is there. */
  runJobsAtStart?: boolean;
  /**
   * Archive the closed months the seeded history covers once it is written, as the daily job
   * would have when each closed (defaults to runJobsAtStart). Some thousand writes for a small
   * seed: tests that do not read the archive leave it out.
   */
  archiveAtStart?: boolean;
  tableName?: string;
  /** Reuse public answers for their s-maxage, as CloudFront does in AWS (default on). */
  edgeCache?: boolean;
  /** Use this DynamoDB (tests share one) instead of starting DynamoDB Local. */
  dynamoDbEndpoint?: string;
  /**
   * A server that answers for the web when publication sources are read (previews, suggestions,
   * the collector), so they work offline: SOURCE_FIXTURE_ORIGIN. Absent, they read the web.
   */
  sourceFixtureOrigin?: string;
  /**
   * Serve the demo's publication sources from a fixture web of the runtime's own (three
   * platforms, offline) and read every source there: LOCAL_SOURCES=fixtures npm start.
   */
  demoSourceFixtures?: boolean;
  /** Followers from which a suggested publication is accepted without review (the default otherwise). */
  suggestionAutoAcceptFollowers?: number;
  log?: (line: string) => void;
}

export interface LocalRuntime {
  url: string;
  port: number;
  dynamoDbEndpoint: string;
  s3Endpoint: string;
  /** The local payment gateway: its clock and card controls are under /__control. */
  paymentGatewayEndpoint: string;
  tableName: string;
  /** Settles once seeding and the start-up jobs are done. */
  ready: Promise<void>;
  runJob(name: string): Promise<void>;
  /**
   * The table units each route's successful invocations took (ConsumedCapacity, as AWS bills
   * it): what docs/route-costs.json records and the route matrix guards.
   */
  tableUnits: RouteUnitsLog;
  /** Resolves once the work queues hold nothing waiting or in flight (what the jobs sent is done). */
  queuesSettled(): Promise<void>;
  /**
   * The work queues as a test or bench drives them: each queue's URL on the SQS emulator (for an
   * SQS client), its waiting messages' bodies, and its consumer enabled or disabled as an event
   * source mapping is (a disabled one's messages wait, and `queuesSettled` does not wait for them).
   */
  workQueues: {
    endpoint: string;
    url(name: QueueName): string;
    waiting(name: QueueName): readonly string[];
    setConsumerEnabled(name: QueueName, enabled: boolean): void;
  };
  /** Product analytics: the events bucket in the S3 emulator, and a flush of the Firehose stand-in's buffer. */
  analytics: { bucket: string; flush(): Promise<void> };
  stop(): Promise<void>;
}

export const LOOPBACK_HOST = '127.0.0.1';

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/**
 * The whole product on one machine, each AWS service stood in for (docs/architecture.md). Each part that fails to start is
 * named in the error, and whatever did start is stopped again.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const log = options.log ?? (() => undefined);
  // The SDK warns that releases from 2027 need Node 22; the lockfile pins ones that run on 20.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const host = options.host ?? LOOPBACK_HOST;
  // Listen first, on the port asked for or (0) one the system picks, so the port is ours before
  // anything is built around it; a port found free and bound seconds later could be taken
  // meanwhile. Until everything is up, requests are told it is starting (503, Retry-After).
  const server: Server = createServer({ maxHeaderSize: MAX_REQUEST_HEAD_BYTES }, answerWhileStarting);
  server.on('clientError', answerUnparsableRequest);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      rejectListen(
        new Error(
          error.code === 'EADDRINUSE'
            ? `Port ${options.port} is already in use: set PORT to another port.`
            : `Cannot listen on ${host} port ${options.port} (check HOST): ${error.message}`,
        ),
      ),
    );
    server.listen(options.port, host, resolveListen);
  });
  const port = (server.address() as AddressInfo).port;
  const tableName = options.tableName ?? LOCAL_TABLE_NAME;
  const url = `http://localhost:${port}`;
  const allowedOrigins = [url, `http://127.0.0.1:${port}`];
  const stops: (() => Promise<void>)[] = [
    () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  ];
  const stopAll = async () => {
    for (const stop of stops.reverse())
      await stop().catch((error: unknown) => log(`while stopping: ${(error as Error).message}`));
    stops.length = 0;
  };

  try {
    const started = Date.now();
    let dynamoDbEndpoint = options.dynamoDbEndpoint;
    if (!dynamoDbEndpoint) {
      const dynamo = await startDynamoDbLocal({
        log,
        ...(options.inMemory ? {} : { dataDir: join(options.dataDir, 'dynamodb') }),
      });
      stops.push(dynamo.stop);
      dynamoDbEndpoint = dynamo.endpoint;
    }
    const table = await ensureTable(dynamoDbEndpoint, tableName);
    log(`DynamoDB Local ready at ${dynamoDbEndpoint} (${table} table ${tableName}) in ${Date.now() - started} ms`);

    const s3 = await startS3Local({ dataDir: join(options.dataDir, 's3'), allowedOrigins, log });
    stops.push(s3.stop);
    log(`S3 emulator ready at ${s3.endpoint}`);
    // Analytics events go through a Firehose stand-in that writes NDJSON objects into the S3 emulator.
    const firehose = await startLocalFirehose({
      streams: [{ name: LOCAL_ANALYTICS_STREAM, bucket: LOCAL_ANALYTICS_BUCKET, prefix: eventsPrefix }],
      s3Endpoint: s3.endpoint,
      log,
    });
    stops.push(firehose.stop);
    // Braintree's sandbox, locally: the Pro plan's prices are its plans (the first names the local
    // merchant's currency), then the demo plans a storefront grade may name; its webhooks come to our route.
    const proPlans = Object.values(PRO_PRICES).map((price) => ({
      id: price.gatewayPlanId,
      name: `Transfer Pro (${price.interval === 'year' ? 'yearly' : 'monthly'})`,
      billingFrequencyMonths: price.billingFrequencyMonths,
      price: toDecimalAmount(price.amountMinor),
      currency: price.currency,
    }));
    const payments = await startLocalPaymentGateway({
      dataDir: join(options.dataDir, 'payments'),
      allowedOrigins,
      webhookUrl: `http://127.0.0.1:${port}${receiveBraintreeWebhook.path}`,
      plans: [...proPlans, ...localDemoPlans(proPlans[0]?.currency ?? 'USD')],
      log,
    });
    stops.push(payments.stop);
    log(`Payment gateway (Braintree's sandbox, locally) at ${payments.endpoint}`);
    const sqs = await startLocalSqs({ queues: WORK_QUEUES, log });
    stops.push(sqs.stop);
    const mailDir = join(options.dataDir, 'mail');
    mkdirSync(mailDir, { recursive: true });

    // The mock Google provider's settings go to the sign-in routes, so it starts before they are imported.
    const oidc = await startLocalOidcProvider({ appUrl: url, log });
    stops.push(oidc.stop);
    let sourceFixtureOrigin = options.sourceFixtureOrigin;
    if (options.demoSourceFixtures && !sourceFixtureOrigin) {
      const fixtureWeb = await startFixtureWeb(demoSourceAnswers());
      stops.push(fixtureWeb.close);
      sourceFixtureOrigin = fixtureWeb.origin;
      log(
        `Publication sources are read from the demo fixture web at ${fixtureWeb.origin}, not the internet: suggest ${DEMO_SOURCE_ADDRESSES.join(', ')}`,
      );
    }
    const deployment: DeploymentSettings = {
      common: {
        STAGE: 'local',
        TABLE_NAME: tableName,
        ALLOWED_ORIGINS: allowedOrigins.join(','),
        DYNAMODB_ENDPOINT: dynamoDbEndpoint,
        // Shared stories may point at pages served on this machine (the demo, the tests).
        FETCH_PRIVATE_ADDRESSES: 'true',
        // A path: the page connects to whichever host it was served from (localhost or 127.0.0.1).
        REALTIME_URL: LOCAL_REALTIME_PATH,
        ...(sourceFixtureOrigin ? { SOURCE_FIXTURE_ORIGIN: sourceFixtureOrigin } : {}),
      },
      email: { MAIL_FROM: LOCAL_MAIL_FROM, MAIL_OUTBOX_DIR: mailDir },
      bucket: { FILE_BUCKET_NAME: LOCAL_BUCKETS[0], S3_ENDPOINT: s3.endpoint },
      payments: { PAYMENT_GATEWAY: 'local', PAYMENT_GATEWAY_URL: payments.endpoint },
      // Merchants' own keys: sealed with a key of this machine's, and 'local' merchant accounts on the local gateway.
      merchantKeys: {
        MERCHANT_KEYS: 'local',
        MERCHANT_KEYS_FILE: ensureMerchantKeysKey(join(options.dataDir, MERCHANT_KEYS_KEY_FILE)),
        MERCHANT_GATEWAY_URL: payments.endpoint,
      },
      realtime: { REALTIME_MANAGEMENT_ENDPOINT: `http://127.0.0.1:${port}${LOCAL_REALTIME_MANAGEMENT_PATH}` },
      analytics: {
        ANALYTICS_BUCKET_NAME: LOCAL_ANALYTICS_BUCKET,
        ANALYTICS_STREAM_NAME: LOCAL_ANALYTICS_STREAM,
        FIREHOSE_ENDPOINT: firehose.endpoint,
        ANALYTICS_S3_ENDPOINT: s3.endpoint,
      },
      queues: Object.fromEntries(
        WORK_QUEUES.map((queue) => [queue.name, { [queue.urlVariable]: sqs.queueUrl(queue.name), SQS_ENDPOINT: sqs.endpoint }]),
      ),
      settings: {
        ...oidc.settings,
        ...(options.suggestionAutoAcceptFollowers === undefined
          ? {}
          : { SUGGESTION_AUTO_ACCEPT_FOLLOWERS: String(options.suggestionAutoAcceptFollowers) }),
      },
    };
    // What Lambda's runtime sets in every function's process, and what code that is not a
    // function (seeding, tests) needs to reach the table.
    Object.assign(process.env, {
      ...deployment.common,
      AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      POWERTOOLS_SERVICE_NAME: 'toppubs-local',
      // Already set by ./powertools-environment, before the functions' modules loaded.
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
      POWERTOOLS_METRICS_DISABLED: 'true',
    });
    const processEnvironment = { ...process.env };
    const scopeOf = (name: string, capabilities: Capabilities) =>
      functionScope(name, capabilities, deployment, processEnvironment);
    enforceTableGrants(getDocumentClient());
    meterTableUnits(getDocumentClient());
    const tableUnits = new RouteUnitsLog();
    onFileBucketClient(enforceBucketGrants);
    onAnalyticsClients(enforceAnalyticsGrants);

    // Each function is imported on its first invocation, as Lambda initialises one.
    const mounts: ApiRouterOptions['mounts'] = routeEntries.map(([name, route]) => {
      const scope = scopeOf(name, route.capabilities);
      const call = lazyFunctionIn<LambdaHttpHandler>(handlerModuleUrl(route.handler), scope);
      return {
        name,
        route,
        handler: (event, context) => tableUnits.meter(name, scope, (callScope) => call(callScope, event, context)),
      };
    });
    const handleApi = createApiRouter({
      mounts,
      allowedOrigins,
      ...(options.edgeCache === false ? {} : { edgeCache: createEdgeCache() }),
    });
    // Pages send files to the S3 emulator and stream packages from it, as they do to the bucket in AWS.
    const serveStatic = createStaticServer(join(REPO_ROOT, 'web', 'dist'), {
      fileSources: [s3.endpoint],
      paymentSources: [payments.endpoint],
    });
    const jobs = JOB_SCHEDULES.map((schedule) => ({
      schedule,
      handler: lazyFunction<JobHandler>(handlerModuleUrl(schedule.handler), scopeOf(schedule.name, schedule.capabilities)),
    }));
    // Lambda's event source mappings: each queue's consumer, imported on its first message.
    for (const queue of WORK_QUEUES) {
      sqs.consume(queue.name, {
        batchSize: queue.consumer.batchSize,
        timeoutSeconds: queue.consumer.timeoutSeconds,
        ...(queue.consumer.maxConcurrency === undefined ? {} : { maxConcurrency: queue.consumer.maxConcurrency }),
        consumer: lazyFunction<SqsConsumer>(
          handlerModuleUrl(queue.consumer.handler),
          scopeOf(queue.consumer.name, queue.consumer.capabilities),
        ),
      });
    }
    const scheduler = startScheduler(jobs, log);
    stops.push(scheduler.stop);
    const realtimeHandlers = new Map<RealtimeHandler['routeKey'], WebSocketHandler>();
    for (const realtime of REALTIME_HANDLERS) {
      realtimeHandlers.set(
        realtime.routeKey,
        lazyFunction<WebSocketHandler>(handlerModuleUrl(realtime.handler), scopeOf(realtime.name, realtime.capabilities)),
      );
    }
    const realtime = createLocalRealtime({ handlers: realtimeHandlers, log });

    const serveMailOutbox = createMailOutboxPage(mailDir);
    server.off('request', answerWhileStarting);
    server.on(
      'request',
      createRequestListener(
        { serveMailOutbox, serveRealtimeManagement: realtime.serveManagementApi, handleApi, serveStatic },
        { origin: url, log },
      ),
    );
    server.on('upgrade', (request, socket, head) => {
      if (!realtime.handleUpgrade(request, socket, head)) socket.destroy();
    });
    // Before the server: open WebSockets would keep it from closing.
    stops.push(realtime.close);
    log(`API and web app listening on ${url}`);
    if (!isLoopback(host)) {
      log(
        `WARNING: listening on ${host}, not only on loopback: the mail outbox (/__local/mail) and the login links ` +
          'it lists are reachable from the network, so anyone who can reach this machine can sign in as any local user.',
      );
    }

    const ready = (async () => {
      const db = getDb();
      const seed = options.seedIfEmpty ? await prepareSeed(db, options.seedPublications, log) : undefined;
      stops.push(async () => seed?.close());
      // Boards need only the publications: rank first, so the site is browsable while history loads.
      if (seed) await seed.writePublications();
      if (options.runJobsAtStart) {
        for (const { schedule } of jobs.filter((job) => job.schedule.runAtLocalStart)) await scheduler.runNow(schedule.name);
      }
      // After the rankings, so the boards are up first; the hot feed is then ranked again over the demo stories.
      if (options.seedSocial && !(await hasStories(db))) {
        const social = await seedSocial(db, new Date(), { stories: options.seedStories });
        log(
          `Seeded ${social.people} demo people, ${social.stories} stories, ${social.follows} follows and ${social.likes} likes`,
        );
        if (options.runJobsAtStart) await scheduler.runNow('rank-hot-stories');
      }
      if (seed) {
        await seed.writeHistories();
        // The seeded history reaches back some three months: archive the closed ones it covers,
        // as the daily job would have when each of them closed.
        if (options.archiveAtStart ?? options.runJobsAtStart) await scheduler.runNow('archive-rankings');
      }
    })();
    ready.catch((error: unknown) => log(`start-up data step failed: ${(error as Error).message}`));

    return {
      url,
      port,
      dynamoDbEndpoint,
      s3Endpoint: s3.endpoint,
      paymentGatewayEndpoint: payments.endpoint,
      tableName,
      ready,
      runJob: (name) => scheduler.runNow(name),
      tableUnits,
      queuesSettled: () => sqs.settled(),
      workQueues: {
        endpoint: sqs.endpoint,
        url: (name) => sqs.queueUrl(name),
        waiting: (name) => sqs.waiting(name),
        setConsumerEnabled: (name, enabled) => sqs.setConsumerEnabled(name, enabled),
      },
      analytics: { bucket: LOCAL_ANALYTICS_BUCKET, flush: firehose.flush },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The local stand-in for the KMS key that seals merchants' keys, under the data folder. */
export const MERCHANT_KEYS_KEY_FILE = 'merchant-keys.key';
const MERCHANT_KEYS_KEY_BYTES = 32;

/**
 * The local key-encryption key of merchants' keys: made on the first start (32 random bytes,
 * readable by this user only), kept after, since every sealed key depends on it. Returns its path.
 */
export function ensureMerchantKeysKey(file: string): string {
  let descriptor: number | undefined;
  try {
    // 'wx': made only when there is none, so two starts at once cannot both write one.
    descriptor = openSync(file, 'wx', 0o600);
    writeSync(descriptor, randomBytes(MERCHANT_KEYS_KEY_BYTES));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
  const existing = openSync(file, 'r');
  try {
    const { size } = fstatSync(existing);
    if (size !== MERCHANT_KEYS_KEY_BYTES) {
      throw new Error(
        `${file} must hold exactly ${MERCHANT_KEYS_KEY_BYTES} bytes (the key that seals merchants' gateway keys); it has ${size}.`,
      );
    }
  } finally {
    closeSync(existing);
  }
  return file;
}

/** DynamoDB Local writes fastest with about this many BatchWrites in flight on two cores. */
const SEED_CONCURRENCY = 16;

/**
 * With SEED_CONCURRENCY BatchWrites in flight, DynamoDB Local answers each after the ones queued
 * before it: on a busy two-core machine, often more than the 5 s a handler's request is given,
 * past which the request fails (and was retried into the same queue). The seed writes through a
 * client of its own whose bound fits bulk writes; the handlers keep theirs.
 */
export const SEED_REQUEST_TIMEOUT_MS = 60_000;

/** The seed's own access to the table (see SEED_REQUEST_TIMEOUT_MS). */
function createSeedClient() {
  const config = getConfig();
  return createDocumentClient({
    endpoint: config.dynamoDbEndpoint,
    region: config.region,
    requestTimeout: SEED_REQUEST_TIMEOUT_MS,
  });
}

/** The demo data set, generated only when the table has no publications yet. */
async function prepareSeed(db: Db, publications: number | undefined, log: (line: string) => void) {
  if (!(await isTableEmptyOfPublications(db))) return undefined;
  const started = Date.now();
  const today = toDay(new Date());
  const count = publications ?? 17_000;
  const feedOnly = feedOnlyShare(count);
  const data = generateSeedData({ today, publications: count, feedOnly });
  log(describeSeed(data, feedOnly));
  const client = createSeedClient();
  const seedDb = createDb(client, getConfig().tableName);
  let lastReport = 0;
  const onProgress = ({ kind, written, total }: SeedProgress) => {
    if (written === total || Date.now() - lastReport > 5_000) {
      lastReport = Date.now();
      log(`  ${kind}: ${written}/${total}`);
    }
  };
  return {
    writePublications: async () => {
      await seedTable(seedDb, { publications: data.publications, histories: [] }, { onProgress, concurrency: SEED_CONCURRENCY });
      log(`Publications seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
    writeHistories: async () => {
      const historiesStarted = Date.now();
      await seedTable(seedDb, { publications: [], histories: data.histories }, { onProgress, concurrency: SEED_CONCURRENCY });
      log(`Follower histories seeded in ${((Date.now() - historiesStarted) / 1000).toFixed(1)} s`);
      const ranksStarted = Date.now();
      const days = await seedRankHistory(seedDb, data, today);
      log(`Rank history of the ${days} days before today seeded in ${((Date.now() - ranksStarted) / 1000).toFixed(1)} s`);
    },
    close: () => client.destroy(),
  };
}
