import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEveryPageTheSuiteVisits, expectAccessible } from '../support/accessibility';
import { launchBrowser, screenshotPath } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { signedInBrowser } from '../support/signed-in-browser';

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime({ seedPublications: 30 }), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

const pageBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe('settings that take effect, in a real browser', () => {
  it('switches to the dark theme at once on saving, keeps it after a reload, and reads well in it', async () => {
    // Prepare
    const { context } = await signedInBrowser(browser, runtime, 'night-reader');
    const page = await context.newPage();
    await page.goto(`${runtime.url}/me`);
    const settings = page.getByRole('region', { name: 'Settings' });
    await settings.getByRole('combobox', { name: 'Theme' }).waitFor();
    const lightBackground = await pageBackground(page);

    // Act
    await settings.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();

    // Assess: dark at once, without a reload
    await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe('dark');
    expect(await pageBackground(page)).not.toBe(lightBackground);

    // Act: a later visit
    await page.goto(`${runtime.url}/`);
    await page.getByRole('table').first().waitFor();

    // Assess: dark from the first paint, and every text colour still readable
    await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe('dark');
    expect(await pageBackground(page)).toBe('rgb(15, 20, 18)');
    await expectAccessible(page, 'the home board in the dark theme');
    await page.screenshot({ path: screenshotPath('home-dark-theme') });
    await page.goto(`${runtime.url}/stories`);
    await page.getByRole('heading', { level: 1, name: 'Stories', exact: true }).waitFor();
    await expectAccessible(page, 'the stories page in the dark theme');
    await context.close();
  });

  it('opens the home page on the default board a reader saved, and on most followed when they pick it', async () => {
    // Prepare
    const { context } = await signedInBrowser(browser, runtime, 'grower');
    const page = await context.newPage();
    await page.goto(`${runtime.url}/me`);
    const settings = page.getByRole('region', { name: 'Settings' });
    await settings.getByRole('combobox', { name: 'Default board' }).selectOption('growth');
    await settings.getByRole('checkbox', { name: 'Show active publications only by default' }).check();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();

    // Act: the logo, as any reader goes home
    await page.getByRole('link', { name: 'TopPubs home' }).click();

    // Assess
    await page.getByRole('heading', { level: 1, name: 'Fastest growing active publications' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    // Act: a fresh visit, then a board picked by hand
    await page.goto(`${runtime.url}/`);
    await page.getByRole('heading', { level: 1, name: 'Fastest growing active publications' }).waitFor();
    const views = page.getByRole('navigation', { name: 'Board views' });
    await views.getByRole('link', { name: 'Most followed' }).click();
    await page.getByRole('navigation', { name: 'Board views' }).getByRole('link', { name: 'All' }).click();

    // Assess
    await page.getByRole('heading', { level: 1, name: 'Most followed publications' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it("follows a visitor's device when it prefers dark, and makes no failing request", async () => {
    // Prepare
    const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });

    // Act
    await page.goto(`${runtime.url}/`);
    await page.getByRole('table').first().waitFor();
    await page.waitForLoadState('networkidle');

    // Assess: dark, and a visitor's page made no request that failed (it never asks who is signed in)
    await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe('dark');
    expect(failed).toEqual([]);
    await expectAccessible(page, 'the home board on a phone that prefers dark');
    await context.close();
  });
});
