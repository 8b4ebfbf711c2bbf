import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEveryPageTheSuiteVisits } from '../support/accessibility';
import { launchBrowser } from '../support/browser';
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

/** A page that records every Content-Security-Policy violation it reports, from the console and the DOM event. */
async function watchedPage(): Promise<{ page: Page; violations: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  // A plain string: tsx would add a helper to a function that does not exist in the page.
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) => {
    console.error('Content Security Policy violation: ' + event.violatedDirective + ' ' + event.blockedURI);
  });`);
  return { page, violations };
}

describe('the web app under its Content-Security-Policy', () => {
  it('browses home and opens the login modal without a single violation', async () => {
    // Prepare
    const { page, violations } = await watchedPage();

    // Act
    const answer = await page.goto(`${runtime.url}/`);
    await page.getByRole('table').getByRole('row').nth(1).waitFor();
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Continue with email' }).click();
    await page.getByRole('textbox', { name: 'Email' }).waitFor();
    await page.keyboard.press('Escape');
    await page.goto(`${runtime.url}/about`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();

    // Assess
    expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(violations).toEqual([]);
  });

  it('lets a page be framed by another page, but not the account page', async () => {
    // Prepare: a page of no origin of ours and with no policy of its own, like a partner's
    const { page } = await watchedPage();
    const frameUrls = () =>
      page
        .frames()
        .slice(1)
        .map((frame) => frame.url());

    // Act
    await page.setContent(`<iframe src="${runtime.url}/about"></iframe><iframe src="${runtime.url}/me"></iframe>`);

    // Assess: a refused frame ends on the browser's error page instead of its URL
    await expect.poll(frameUrls, { timeout: 15_000 }).toEqual([`${runtime.url}/about`, 'chrome-error://chromewebdata/']);
  });
});
