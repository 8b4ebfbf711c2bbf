import { join } from 'node:path';
import { REPO_ROOT, startLocalRuntime } from './runtime';
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

async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR ?? join(REPO_ROOT, '.data');
  log(`Starting the product locally (data in ${dataDir})`);
  await ensureWebBuilt({ log });
  // SEED_PUBLICATIONS trims the demo data set (tests); the product seeds 17,000.
  const seedPublications = process.env.SEED_PUBLICATIONS ? Number(process.env.SEED_PUBLICATIONS) : undefined;
  const runtime = await startLocalRuntime({
    port: readPort(),
    dataDir,
    seedIfEmpty: true,
    seedPublications,
    runJobsAtStart: true,
    // LOCAL_EDGE_CACHE=off sends every request to the handlers (the benchmark measures both).
    edgeCache: process.env.LOCAL_EDGE_CACHE !== 'off',
    log,
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal} received: stopping every local service...`);
    runtime
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

  log(`Ready: open ${runtime.url} (API health: ${runtime.url}/api/health)`);
  await runtime.ready;
  log(`Rankings are up to date: ${runtime.url}/api/i/toppubs/show/home`);
}

main().catch((error: unknown) => {
  console.error(`Could not start: ${(error as Error).message}`);
  process.exit(1);
});
