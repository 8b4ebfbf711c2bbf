import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEveryPageTheSuiteVisits } from '../support/accessibility';
import { launchBrowser, screenshotPath } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { logInByEmailFromModal } from '../support/email-login';
import { signedInBrowser } from '../support/signed-in-browser';

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime({ seedPublications: 150 }), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

describe('publication pages in a real browser', () => {
  it('opens a publication from a board, draws its charts, and follows it onto the Following board', async () => {
    // Prepare
    const { context } = await signedInBrowser(browser, runtime, 'pub-follower');
    const page = await context.newPage();
    await page.goto(`${runtime.url}/`);
    const board = page.getByRole('table', { name: 'Most followed publications' });
    const firstRow = board.getByRole('row').nth(1);
    const name = (await firstRow.getByRole('link').first().textContent()) ?? '';

    // Act: open it from its row
    await firstRow.getByRole('link', { name, exact: true }).click();
    await page.waitForURL(/\/pub\/[a-z0-9._-]+$/);
    await page.getByRole('heading', { level: 1, name }).waitFor();

    // Assess: both charts are drawn (SVG lines over 90 days) and described
    const followerChart = page.getByRole('img', { name: new RegExp(`^Followers of ${name} from`) });
    const rankChart = page.getByRole('img', { name: new RegExp(`^Rank of ${name} on Most followed from`) });
    await followerChart.locator('svg .recharts-area-curve').waitFor();
    // A steady #1 draws a flat line: attached and drawn, though a flat path has no height to be "visible".
    const rankLine = rankChart.locator('svg .recharts-line-curve');
    await rankLine.waitFor({ state: 'attached' });
    await expect(rankLine.getAttribute('d')).resolves.toMatch(/^M[\d.]+,[\d.]+C/);
    await expect(rankChart.getAttribute('aria-label')).resolves.toMatch(/#1\.$/);
    await expect(page.getByRole('region', { name: 'Rankings' }).getByRole('listitem').first().textContent()).resolves.toMatch(
      /^#1of \d+Most followed$/,
    );
    await page.screenshot({ path: screenshotPath('publication-page'), fullPage: true });

    // Act: follow it. The button turns at once (an optimistic update), so the reload below waits
    // for the server's answer: the Following page loaded while the follow was still on its way
    // listed without it (it failed so once on a loaded machine), as it would for a person.
    const followed = page.waitForResponse(
      (response) => /\/follow\/on$/.test(new URL(response.url()).pathname) && response.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await page.getByRole('button', { name: 'Following', exact: true }).waitFor();
    expect((await followed).status()).toBe(200);
    await page.goto(`${runtime.url}/following`);

    // Assess: it is on the Following board, and still followed after the reload
    await page.getByRole('table', { name: 'Publications you follow' }).getByRole('link', { name, exact: true }).waitFor();
    await context.close();
  });

  it('logs in from a topic page and lands back on it', async () => {
    // Prepare
    const email = `e2e-topic-${Date.now()}@example.com`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${runtime.url}/topics`);
    const topicPath = (await page.locator('main a[href^="/topic/"]').first().getAttribute('href')) as string;
    await page.goto(`${runtime.url}${topicPath}`);
    await page.getByRole('table', { name: /: most followed$/ }).waitFor();

    // Act
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await logInByEmailFromModal(page, runtime, email);

    // Assess
    await page.waitForURL(`${runtime.url}${topicPath}`);
    await page.getByRole('button', { name: /^Account menu for / }).waitFor();
    await page.getByRole('table', { name: /: most followed$/ }).waitFor();
    await context.close();
  });

  it('pages through a search with more than one page of results, the match marked in each name', async () => {
    // Prepare: a letter that starts a word in more than 50 names (one page).
    let q = '';
    for (const letter of 'tsabcdefghijklmnopqruvwxyz') {
      const answer = await fetch(`${runtime.url}/api/i/toppubs/search?q=${letter}&limit=1`);
      if (((await answer.json()) as { total: number }).total > 50) {
        q = letter;
        break;
      }
    }
    expect(q).not.toBe('');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${runtime.url}/search?q=${q}`);
    const results = page.getByRole('table', { name: `Search results for "${q}"` });
    await results.getByRole('row').nth(1).waitFor();
    const firstPageTop = await results.getByRole('row').nth(1).getByRole('link').first().textContent();

    // Act
    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Page 2' }).click();

    // Assess
    await page.waitForURL(`${runtime.url}/search?q=${q}&page=2`);
    await page
      .getByRole('status')
      .filter({ hasText: / · page 2 of \d+$/ })
      .waitFor();
    const secondPageTop = await results.getByRole('row').nth(1).getByRole('link').first().textContent();
    expect(secondPageTop).not.toBe(firstPageTop);
    await expect(results.locator('mark').first().textContent()).resolves.toMatch(new RegExp(`^${q}$`, 'i'));
    await context.close();
  });
});
