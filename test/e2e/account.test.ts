import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logInByEmailFromModal } from '../support/email-login';
import { checkEveryPageTheSuiteVisits, expectAccessible } from '../support/accessibility';
import { launchBrowser, screenshotPath } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime({ seedPublications: 5 }), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

describe('the account page in a real browser', () => {
  it('logs in by email from /me and lands back on it, changes the name and sees it saved', async () => {
    // Prepare: log in with an emailed link
    const email = `e2e-account-${Date.now()}@example.com`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${runtime.url}/me`);
    await page.getByRole('heading', { level: 1, name: 'Log in to see your account' }).waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await logInByEmailFromModal(page, runtime, email);
    // Back on /me, where the login started, and signed in.
    await page.waitForURL(`${runtime.url}/me`);
    await page.getByRole('button', { name: /^Account menu for / }).waitFor();

    // Act: change the name on /me
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

    // Act: open the delete dialog from the keyboard, check it, close it with Escape
    const deleteButton = page.getByRole('button', { name: 'Delete account…' });
    await deleteButton.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await expectAccessible(page, 'the delete-account dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // Assess: focus is back on the button that opened it, and the account is still there
    await expect.poll(() => deleteButton.evaluate((button) => button === document.activeElement)).toBe(true);
    await expect(page.getByRole('region', { name: 'Profile' }).isVisible()).resolves.toBe(true);
    await context.close();
  });
});
