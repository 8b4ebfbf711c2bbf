import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newestLoginLink } from '../support/mail';
import { checkEveryPageTheSuiteVisits, expectAccessible } from '../support/accessibility';
import { launchBrowser, screenshotPath } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime({ seedPublications: 60 }), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

describe('logging in with an emailed link in a real browser', () => {
  it('sends a link, logs in from it, shows the avatar menu, then logs out', async () => {
    // Prepare
    const email = `e2e-${Date.now()}@example.com`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${runtime.url}/`);

    // Act: ask for a link
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Continue with email' }).click();
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = page.getByRole('dialog', { name: `Login link sent to ${email}` });
    await sent.waitFor();
    await expectAccessible(page, 'the login modal, link sent');
    await page.screenshot({ path: screenshotPath('login-link-sent') });
    await sent.getByRole('button', { name: 'Ok' }).click();

    // Assess
    await expect(sent.count()).resolves.toBe(0);

    // Act: open the emailed link in the same browser; nothing happens until Log in
    const link = await newestLoginLink(runtime.mailDir, email);
    const confirmUrl = new URL(link);
    await page.goto(`${runtime.url}${confirmUrl.pathname}${confirmUrl.hash}`);
    await page.getByRole('heading', { level: 1, name: 'Log in to TopPubs' }).waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${runtime.url}/`);
    const avatar = page.getByRole('button', { name: /^Account menu for / });
    await avatar.waitFor();
    await avatar.click();
    const items = page.getByRole('menu').getByRole('menuitem');
    await items.first().waitFor();
    const itemTexts = (await items.allInnerTexts()).map((text) => text.trim());
    await expectAccessible(page, 'the avatar menu');

    // Assess
    expect(new URL(link).origin).toBe(new URL(runtime.url).origin);
    expect(page.url()).not.toContain('token=');
    expect(itemTexts).toEqual(expect.arrayContaining(['Account', 'Active Publications', 'Topics', 'About', 'Help', 'Logout']));
    expect(itemTexts.at(-1)).toBe('Logout');

    // Act: the same link does not work twice
    await page.keyboard.press('Escape');
    const reused = await context.newPage();
    await reused.goto(`${runtime.url}${confirmUrl.pathname}${confirmUrl.hash}`);
    await reused.getByRole('main').getByRole('button', { name: 'Log in', exact: true }).click();
    const refusal = reused.getByRole('main').getByRole('alert');
    await refusal.waitFor();
    await expectAccessible(reused, 'a login link used twice');

    // Assess
    await expect(refusal.getByRole('button', { name: 'Send a new link' }).isVisible()).resolves.toBe(true);
    await reused.close();

    // Act: log out from the avatar menu's plain link
    await page.goto(`${runtime.url}/logout`);
    await page.getByRole('heading', { level: 1, name: 'You are logged out' }).waitFor();
    const login = page.getByRole('button', { name: 'Login', exact: true });
    await login.waitFor();
    await page.reload();
    await login.waitFor();

    // Assess: the session is gone on the server too
    await expect(page.getByRole('button', { name: /^Account menu for / }).count()).resolves.toBe(0);
    await context.close();
  });
});
