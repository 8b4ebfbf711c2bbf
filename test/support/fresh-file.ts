/**
 * The integration and browser files share their worker processes (vitest.config.ts): the
 * libraries in node_modules (the AWS SDK, ElectroDB, zod, Playwright) load once per worker
 * instead of once per file. Each file still starts as it would in a process of its own: every
 * module of ours (functions/, infra/, shared/, test/) is evaluated again, so module-scope config
 * and caches are the file's own, and what an earlier file changed of the process (the
 * environment, global fetch, spies) is put back as the worker started.
 */
import { vi } from 'vitest';

interface WorkerStart {
  env: Record<string, string | undefined>;
  fetch: typeof fetch;
}

const holder = globalThis as typeof globalThis & { __workerStart?: WorkerStart };
const start = (holder.__workerStart ??= { env: { ...process.env }, fetch: globalThis.fetch });

for (const name of Object.keys(process.env)) if (!(name in start.env)) delete process.env[name];
Object.assign(process.env, start.env);
globalThis.fetch = start.fetch;
vi.restoreAllMocks();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
vi.useRealTimers();
vi.resetModules();
