import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium): never a browser downloaded by a test tool. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');

export class BrowserMissing extends Error {
  constructor() {
    super(`Chromium was not found at ${CHROMIUM_PATH}. Install it with: apt-get install chromium (or set CHROMIUM_PATH).`);
    this.name = 'BrowserMissing';
  }
}

/**
 * Headless Chromium with the flags this closed network needs: without the background
 * networking flags Chromium keeps trying to reach Google's hosts. A missing browser fails the
 * run, in CI and locally alike: it is never a silent skip.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new BrowserMissing();
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
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

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, `${name}.png`);
}
