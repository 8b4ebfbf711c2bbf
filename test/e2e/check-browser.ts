import { findChromium, launchBrowser } from '../support/browser';

/**
 * Runs before the slower set-up, so that a missing browser fails the run at once. Unpacking the
 * npm build here, once, spares the suites from each waiting for it, and the log says which
 * browser the run used.
 */
export default async function setup() {
  const browser = await launchBrowser();
  try {
    const { label } = await findChromium();
    process.stdout.write(`e2e browser: Chromium ${browser.version()} from ${label}\n`);
  } finally {
    await browser.close();
  }
}
