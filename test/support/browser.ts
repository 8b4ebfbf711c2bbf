import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { unpackBundledChromium } from './bundled-chromium';
import { chooseBrowser } from './choose-browser';

export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');

export class BrowserMissing extends Error {
  constructor(reason: string) {
    super(`No Chromium for the browser tests: ${reason}`);
    this.name = 'BrowserMissing';
  }
}

export interface FoundChromium {
  executablePath: string;
  /** Where it comes from, for the run's log. */
  label: string;
  /** Set for the npm build only; other browsers get the environment unchanged. */
  env?: Record<string, string>;
}

let found: Promise<FoundChromium> | undefined;

/** The browser this process uses (see chooseBrowser), unpacked on first use when it is the npm one. */
export function findChromium(): Promise<FoundChromium> {
  found ??= locate();
  return found;
}

async function locate(): Promise<FoundChromium> {
  const choice = chooseBrowser({
    override: process.env.CHROMIUM_PATH,
    bundledBinDir: bundledBinDir(),
    platform: `${process.platform}-${process.arch}`,
    exists: existsSync,
  });
  switch (choice.source) {
    case 'missing':
      throw new BrowserMissing(choice.reason);
    case 'CHROMIUM_PATH':
      return { executablePath: choice.executablePath, label: `CHROMIUM_PATH (${choice.executablePath})` };
    case 'debian':
      return { executablePath: choice.executablePath, label: `Debian's chromium package (${choice.executablePath})` };
    case 'npm': {
      const unpacked = await unpackBundledChromium(choice.binDir);
      return {
        executablePath: unpacked.executablePath,
        label: `@sparticuz/chromium ${unpacked.version} (unpacked in ${unpacked.dir})`,
        env: unpacked.env,
      };
    }
  }
}

function bundledBinDir(): string | undefined {
  try {
    // The package exports only its entry point (build/index.js); the compressed build sits beside build/.
    return join(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..', 'bin');
  } catch {
    return undefined;
  }
}

/**
 * Headless Chromium with the flags this closed network needs: without the background
 * networking flags Chromium keeps trying to reach Google's hosts. A missing browser fails the
 * run, in CI and locally alike: it is never a silent skip. The npm build's own recommended
 * flags are not used: they are for Lambda (--single-process among them), and the flags below
 * work for it and for Debian's build alike.
 */
export async function launchBrowser(): Promise<Browser> {
  const { executablePath, env } = await findChromium();
  return chromium.launch({
    executablePath,
    headless: true,
    ...(env ? { env: { ...definedOnly(process.env), ...env } } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, `${name}.png`);
}
