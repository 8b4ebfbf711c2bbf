import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './repo-root';

const WEB_DIR = join(REPO_ROOT, 'web');
const BUILT_INDEX = join(WEB_DIR, 'dist', 'index.html');
/** What the web build reads: a change to any of these makes the build stale. */
const SOURCES = [
  join(WEB_DIR, 'src'),
  join(WEB_DIR, 'public'),
  join(WEB_DIR, 'index.html'),
  join(WEB_DIR, 'vite.config.ts'),
  join(REPO_ROOT, 'shared'),
];

/** Tests sit beside the components they test, but are not part of the build. */
const isTestFile = (name: string) => /\.test\.tsx?$/.test(name) || name === 'test';

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path)
    .filter((entry) => !isTestFile(entry))
    .reduce((newest, entry) => Math.max(newest, newestChange(join(path, entry))), stats.mtimeMs);
}

export function webBuildIsStale(): boolean {
  if (!existsSync(BUILT_INDEX)) return true;
  const builtAt = statSync(BUILT_INDEX).mtimeMs;
  return SOURCES.some((source) => newestChange(source) > builtAt);
}

/** Builds web/ into web/dist with Vite (the same build CDK deploys). */
export async function buildWeb(options: { log: (line: string) => void }): Promise<void> {
  const started = Date.now();
  const { build } = await import('vite');
  // Vite keeps an inherited NODE_ENV (vitest sets 'test'), which would ship React's development
  // build into web/dist, the folder `npm start` serves: always build for production.
  const inherited = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(WEB_DIR, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
  } finally {
    if (inherited === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = inherited;
  }
  options.log(`Web app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** `npm start` serves the current web app: build it when it is missing or older than its sources. */
export async function ensureWebBuilt(options: { log: (line: string) => void }): Promise<void> {
  if (!webBuildIsStale()) return;
  options.log('Building the web app...');
  await buildWeb(options);
}
