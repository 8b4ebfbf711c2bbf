import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEml } from '../../functions/lib/mail/eml';
import { launchBrowser, screenshotPath } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime({ seedPublications: 5 }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

/** The login link in the newest captured email to `to`, waiting for it to land. */
async function newestLoginLink(to: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = (await readdir(runtime.mailDir))
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .reverse();
    for (const file of files) {
      const mail = parseEml(await readFile(join(runtime.mailDir, file), 'utf8'));
      if (!(mail.headers.to ?? '').includes(to)) continue;
      const link = /https?:\/\/\S+\/login\/confirm#token=[A-Za-z0-9_-]+/.exec(mail.text ?? mail.html ?? '')?.[0];
      if (link) return link;
    }
    if (Date.now() > deadline) throw new Error(`No login email to ${to} in ${runtime.mailDir}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the account page in a real browser', () => {
  it('logs in by email, opens /me, changes the name and sees it saved', async () => {
    // Prepare: log in with an emailed link
    const email = `e2e-account-${Date.now()}@example.com`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${runtime.url}/me`);
    await page.getByRole('heading', { level: 1, name: 'Log in to see your account' }).waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Continue with email' }).click();
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page
      .getByRole('dialog', { name: `Login link sent to ${email}` })
      .getByRole('button', { name: 'Ok' })
      .click();
    const confirmUrl = new URL(await newestLoginLink(email));
    await page.goto(`${runtime.url}${confirmUrl.pathname}${confirmUrl.hash}`);
    await page.getByRole('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${runtime.url}/`);
    await page.getByRole('button', { name: /^Account menu for / }).waitFor();

    // Act: change the name on /me
    await page.goto(`${runtime.url}/me`);
    const profile = page.getByRole('region', { name: 'Profile' });
    const name = profile.getByRole('textbox', { name: 'Name', exact: true });
    await name.waitFor();
    await name.fill('E2E Tester');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Profile saved').waitFor();
    await page.screenshot({ path: screenshotPath('account-profile-saved') });
    await page.reload();

    // Assess: the server kept it
    await expect(
      page.getByRole('region', { name: 'Profile' }).getByRole('textbox', { name: 'Name', exact: true }).inputValue(),
    ).resolves.toBe('E2E Tester');
    const thisDevice = page.getByRole('region', { name: 'Sessions' }).getByText('This device');
    await thisDevice.waitFor();
    await expect(thisDevice.count()).resolves.toBe(1);
    await context.close();
  });
});
