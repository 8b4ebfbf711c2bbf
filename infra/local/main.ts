import { join } from 'node:path';
import { LOOPBACK_HOST, type LocalRuntime, REPO_ROOT, startLocalRuntime } from './runtime';
import { ensureWebBuilt } from './web-build';

const stamp = () => new Date().toISOString().slice(11, 19);
const log = (line: string) => console.log(`${stamp()} ${line}`);

function readPort(): number {
  const raw = process.env.PORT ?? '3000';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`PORT must be a number from 0 to 65535, not '${raw}'.`);
    process.exit(2);
  }
  return port;
}

/** SUGGESTION_AUTO_ACCEPT_FOLLOWERS, when set: the functions' config refuses anything but a whole number too. */
function readFollowerFloor(): { suggestionAutoAcceptFollowers?: number } {
  const raw = process.env.SUGGESTION_AUTO_ACCEPT_FOLLOWERS?.trim();
  if (!raw) return {};
  if (!/^\d+$/.test(raw)) {
    console.error(`SUGGESTION_AUTO_ACCEPT_FOLLOWERS must be a whole number of followers, not '${raw}'.`);
    process.exit(2);
  }
  return { suggestionAutoAcceptFollowers: Number(raw) };
}

/** LOCAL_SOURCES: 'web' (the default) reads publications from the internet, 'fixtures' from the demo's fixture web. */
function readLocalSources(): 'web' | 'fixtures' {
  const value = process.env.LOCAL_SOURCES?.trim() || 'web';
  if (value !== 'web' && value !== 'fixtures') {
    console.error(`LOCAL_SOURCES must be 'web' or 'fixtures', not '${value}'.`);
    process.exit(2);
  }
  return value;
}

/** Loopback unless HOST says otherwise (HOST=0.0.0.0 for every interface). */
function readHost(): string {
  return process.env.HOST?.trim() || LOOPBACK_HOST;
}

/** How long a crash waits for the local services to stop before exiting anyway. */
const CRASH_STOP_TIMEOUT_MS = 5_000;
/** How long Ctrl-C or SIGTERM waits for them (a job in flight may take a few seconds to end). */
const STOP_TIMEOUT_MS = 15_000;
let runtime: LocalRuntime | undefined;
let stopping = false;

/**
 * Something failed outside any request (those answer 500 and carry on): the state is unknown,
 * so stop every service that started, then exit with an error. DynamoDB Local also ends on its
 * own when this process is gone, however it goes.
 */
function crash(kind: string, error: unknown): void {
  console.error(`${stamp()} ${kind}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  if (stopping) return;
  stopping = true;
  log('Stopping every local service after that error...');
  const timer = setTimeout(() => process.exit(1), CRASH_STOP_TIMEOUT_MS);
  timer.unref();
  void (runtime?.stop() ?? Promise.resolve())
    .catch((stopError: unknown) => console.error(stopError))
    .finally(() => process.exit(1));
}

process.on('uncaughtException', (error) => crash('Uncaught exception', error));
process.on('unhandledRejection', (reason) => crash('Unhandled promise rejection', reason));

async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR ?? join(REPO_ROOT, '.data');
  log(`Starting the product locally (data in ${dataDir})`);
  await ensureWebBuilt({ log });
  // SEED_PUBLICATIONS and SEED_STORIES trim the demo data set for a quick first start (tests);
  // by default it has 17,000 publications and 300 stories.
  const seedPublications = process.env.SEED_PUBLICATIONS ? Number(process.env.SEED_PUBLICATIONS) : undefined;
  const seedStories = process.env.SEED_STORIES ? Number(process.env.SEED_STORIES) : undefined;
  const started = await startLocalRuntime({
    port: readPort(),
    host: readHost(),
    dataDir,
    seedIfEmpty: true,
    seedPublications,
    seedSocial: true,
    seedStories,
    runJobsAtStart: true,
    // LOCAL_EDGE_CACHE=off sends every request to the handlers (the benchmark measures both).
    edgeCache: process.env.LOCAL_EDGE_CACHE !== 'off',
    // Where publications are read: the web, a fixture server of the user's, or the demo's own.
    ...(process.env.SOURCE_FIXTURE_ORIGIN ? { sourceFixtureOrigin: process.env.SOURCE_FIXTURE_ORIGIN } : {}),
    demoSourceFixtures: readLocalSources() === 'fixtures',
    ...readFollowerFloor(),
    log,
  });
  runtime = started;

  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal} received: stopping every local service...`);
    // A service that will not stop (a seeding write retrying against a database already gone)
    // must not keep the process alive: DynamoDB Local ends on its own once this process is gone.
    const timer = setTimeout(() => {
      console.error(`${stamp()} Some local service did not stop within ${STOP_TIMEOUT_MS / 1000} s: exiting anyway.`);
      process.exit(1);
    }, STOP_TIMEOUT_MS);
    timer.unref();
    started
      .stop()
      .then(() => {
        log('Stopped. Nothing is left running.');
        process.exit(0);
      })
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  log(`Ready: open ${started.url} (API health: ${started.url}/api/health)`);
  await started.ready;
  log(`Rankings are up to date: ${started.url}/api/i/toppubs/show/home`);
}

main().catch((error: unknown) => {
  console.error(`Could not start: ${(error as Error).message}`);
  process.exit(1);
});
