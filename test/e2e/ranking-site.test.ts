import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardPage } from '../../shared/schemas/ranking';
import { checkEveryPageTheSuiteVisits, expectAccessible } from '../support/accessibility';
import { launchBrowser, screenshotPath } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  // 400 publications give every board below several pages, active and dormant rows and dozens of
  // topics, as in the ranking API suite; 1,200 cost the suite some 11 s more to seed and rank.
  [runtime, browser] = await Promise.all([startTestRuntime({ seedPublications: 400 }), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

async function openPage(path: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${runtime.url}${path}`);
  return page;
}

async function apiBoard(path: string): Promise<BoardPage> {
  return (await (await runtime.get(path)).json()) as BoardPage;
}

/**
 * Names and ranks of the rows of the board called `board`, top to bottom. The board is found by
 * name because a link keeps the previous board on screen until the next one has loaded.
 */
async function visibleRows(page: Page, count: number, board: string | RegExp): Promise<{ rank: number; name: string }[]> {
  const rows = page
    .getByRole('table', { name: board, exact: true })
    .getByRole('row')
    .filter({ has: page.getByRole('link') });
  await rows.first().waitFor();
  const result: { rank: number; name: string }[] = [];
  for (let index = 0; index < count; index += 1) {
    const row = rows.nth(index);
    result.push({
      rank: Number(await row.getByRole('cell').first().innerText()),
      name: (await row.getByRole('link').first().innerText()).trim(),
    });
  }
  return result;
}

describe('the ranking site in a real browser', () => {
  it('shows the most followed publications, ranked in order, and saves desktop and mobile screenshots', async () => {
    // Prepare
    const expected = await apiBoard('/api/i/toppubs/load/pubs?limit=10');

    // Act
    const page = await openPage('/');
    const rows = await visibleRows(page, 10, 'Most followed publications');
    await page.screenshot({ path: screenshotPath('home-desktop') });
    const mobile = await openPage('/', { width: 390, height: 844 });
    await visibleRows(mobile, 3, 'Most followed publications');
    await mobile.screenshot({ path: screenshotPath('home-mobile') });

    // Assess
    expect(rows.map((row) => row.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(rows.map((row) => row.name)).toEqual(expected.items.map((item) => item.name));
    await expect(page.title()).resolves.toContain('Most followed publications');
  });

  it('switches to active only, fastest growing and a topic board', async () => {
    // Prepare
    const active = await apiBoard('/api/i/toppubs/load/pubs?active=true&limit=5');
    const growingActive = await apiBoard('/api/i/toppubs/load/growthPubs?active=true&limit=5');
    const page = await openPage('/');
    await visibleRows(page, 1, 'Most followed publications');

    // Act
    await page.getByRole('group', { name: 'Publications' }).getByRole('link', { name: 'Active only' }).click();
    await page.waitForURL(/\/active$/);
    const activeRows = await visibleRows(page, 5, 'Most followed active publications');
    await page.getByRole('group', { name: 'Rank by' }).getByRole('link', { name: 'Fastest growing' }).click();
    await page.waitForURL(/\/growing\/active$/);
    const growingRows = await visibleRows(page, 5, 'Fastest growing active publications');
    const firstTopic = page.getByRole('table').getByRole('list').first().getByRole('link').first();
    const topicHref = (await firstTopic.getAttribute('href')) as string;
    await firstTopic.click();
    await page.waitForURL((url) => url.pathname === topicHref);
    const tag = topicHref.split('/').at(-1) as string;
    const topicBoard = await apiBoard(`/api/i/toppubs/load/pubs?topic=${tag}&limit=3`);
    const topicRows = await visibleRows(page, 3, /: most followed$/);

    // Assess
    expect(activeRows.map((row) => row.name)).toEqual(active.items.map((item) => item.name));
    expect(growingRows.map((row) => row.name)).toEqual(growingActive.items.map((item) => item.name));
    expect(topicRows.map((row) => row.name)).toEqual(topicBoard.items.map((item) => item.name));
  });

  it('finds a seeded publication from the search page', async () => {
    // Prepare
    const target = (await apiBoard('/api/i/toppubs/load/pubs?from=42&limit=1')).items[0] as BoardPage['items'][number];
    const page = await openPage('/search');

    // Act
    await page.getByRole('searchbox', { name: 'Search publications' }).fill(target.name);
    const result = page.getByRole('link', { name: target.name, exact: true });
    await result.waitFor();

    // Assess
    expect(new URL(page.url()).searchParams.get('q')).toBe(target.name);
    await expect(result.getAttribute('href')).resolves.toBe(`/pub/${target.slug}`);
    await expect(
      page.getByRole('link', { name: `Visit ${target.name} (opens in a new tab)`, exact: true }).getAttribute('href'),
    ).resolves.toBe(target.url);
  });

  it('suggests publications in the top bar as a name is typed, and opens the chosen one', async () => {
    // Prepare: the 43rd most followed, so the suggestion has to come from the search, not the board on screen
    const target = (await apiBoard('/api/i/toppubs/load/pubs?from=42&limit=1')).items[0] as BoardPage['items'][number];
    const page = await openPage('/');
    await visibleRows(page, 1, 'Most followed publications');
    const box = page.getByRole('banner').getByRole('combobox', { name: 'Search publications' });

    // Act: typed at once, as a person would, while the box's own code may still be on its way
    await box.click();
    await page.keyboard.type(target.name, { delay: 20 });
    const escapedName = target.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const suggestion = page
      .getByRole('listbox', { name: 'Suggested publications' })
      .getByRole('option', { name: new RegExp(`^${escapedName} [\\d.,]+[KMB]? followers$`) });
    await suggestion.waitFor();

    // Assess: nothing typed was lost, and the list says how to see everything
    await expect(box.inputValue()).resolves.toBe(target.name);
    await expect(page.getByRole('option', { name: /^See all \d[\d,]* results? for/ }).count()).resolves.toBe(1);
    await expectAccessible(page, 'the top bar with its suggestions open');

    // Act
    for (let presses = 0; presses < 7 && (await suggestion.getAttribute('aria-selected')) !== 'true'; presses += 1) {
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');

    // Assess
    await page.waitForURL(`**/pub/${target.slug}`);
    await page.getByRole('heading', { level: 1, name: target.name }).waitFor();
    await expect(box.inputValue()).resolves.toBe('');
  });

  it('hides the top bar when scrolling down and brings it back when scrolling up', async () => {
    // Prepare
    const page = await openPage('/');
    await visibleRows(page, 1, 'Most followed publications');
    const barBottom = () => page.getByRole('banner').evaluate((bar) => bar.getBoundingClientRect().bottom);

    // Act, then Assess once the bar's slide has had time to finish (a loaded machine slows it:
    // a fixed wait read it halfway)
    await page.mouse.wheel(0, 900);
    await expect.poll(barBottom, { timeout: 5_000 }).toBeLessThanOrEqual(0);
    await page.mouse.wheel(0, -200);
    await expect.poll(barBottom, { timeout: 5_000 }).toBeGreaterThan(0);
  });

  it('collapses the top bar links into a menu on a phone-sized screen', async () => {
    // Prepare
    const page = await openPage('/', { width: 390, height: 844 });
    const nav = page.getByRole('navigation', { name: 'Main' });

    // Act
    const inlineLinkVisible = await nav.getByRole('link', { name: 'Top Growing' }).isVisible();
    await page.getByRole('button', { name: 'Menu' }).click();
    const items = page.getByRole('menu').getByRole('menuitem');
    await items.first().waitFor();

    // Assess
    expect(inlineLinkVisible).toBe(false);
    // The main links, then the apps of this host (Stories is already a main link)
    expect(await items.allInnerTexts()).toEqual([
      'Active',
      'Topics',
      'Top Growing',
      'Stories',
      'Rankings',
      'Send files',
      'Pro',
      'Shops',
    ]);
  });

  it("takes over a topic page's HTML without a flash, a spinner or a second fetch of its data", async () => {
    // Prepare: what the topic's board holds, and a record of the page at every animation frame
    const home = (await (await runtime.get('/api/i/toppubs/show/home')).json()) as {
      popularTopics: { tag: string; name: string }[];
    };
    const topic = home.popularTopics[0] as { tag: string; name: string };
    const board = await apiBoard(`/api/i/toppubs/load/pubs?topic=${topic.tag}&limit=1`);
    const first = board.items[0]?.name as string;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(
      ({ heading, name }) => {
        const frames: { heading: boolean; name: boolean; app: boolean }[] = [];
        (window as unknown as { frames_: typeof frames }).frames_ = frames;
        const record = () => {
          const root = document.getElementById('root');
          frames.push({
            heading: [...document.querySelectorAll('h1')].some((element) => element.textContent === heading),
            name: root?.textContent?.includes(name) ?? false,
            app: document.querySelector('[role="table"]') !== null,
          });
          if (frames.length < 2_000) requestAnimationFrame(record);
        };
        requestAnimationFrame(record);
      },
      { heading: topic.name, name: first },
    );
    const page = await context.newPage();
    const screenCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/i/toppubs/show/')) screenCalls.push(request.url());
    });

    // Act
    await page.goto(`${runtime.url}/topic/${topic.tag}`);
    const rows = await visibleRows(page, 1, `${topic.name}: most followed`);
    // A few frames more, to see that the app's page stays
    await page.waitForFunction(() => {
      const frames = (window as unknown as { frames_: { app: boolean }[] }).frames_;
      return frames.filter((frame) => frame.app).length >= 10;
    });
    const frames = await page.evaluate(
      () => (window as unknown as { frames_: { heading: boolean; name: boolean; app: boolean }[] }).frames_,
    );
    const head = await page.evaluate(() => ({
      titles: document.querySelectorAll('title').length,
      descriptions: document.querySelectorAll('meta[name="description"]').length,
      canonicals: [...document.querySelectorAll('link[rel="canonical"]')].map((link) => link.getAttribute('href')),
      robots: document.querySelector('meta[name="robots"]')?.getAttribute('content'),
    }));

    // Assess: the page's heading and leader on screen before the app took over, and never a gap
    // after (a frame may come while the HTML is still arriving: the browser paints what it has)
    expect(rows[0]?.name).toBe(first);
    expect(frames.length).toBeGreaterThan(10);
    const whole = frames.findIndex((frame) => frame.heading && frame.name);
    expect(whole).toBeGreaterThanOrEqual(0);
    expect(frames.findIndex((frame) => frame.app)).toBeGreaterThan(whole);
    expect(frames.slice(whole).filter((frame) => !frame.heading || !frame.name)).toEqual([]);
    expect(frames.at(-1)?.app).toBe(true);
    // The board's data came with the page: the app asked the API for none of it
    expect(screenCalls).toEqual([]);
    // The app's own head tags replaced the page's: none twice
    expect(head).toEqual({
      titles: 1,
      descriptions: 1,
      canonicals: [`${runtime.url}/topic/${topic.tag}`],
      robots: 'index,follow',
    });
    await expect(page.title()).resolves.toContain(topic.name);
  });

  it('refuses file paths with a clear message', async () => {
    // Act
    const page = await openPage('/some/file.png');
    const message = page.getByText('File paths not supported: /some/file.png');

    // Assess
    await expect(message.waitFor().then(() => message.isVisible())).resolves.toBe(true);
  });

  it('shows the not-found page with a way home for an unknown route', async () => {
    // Act
    const page = await openPage('/no/such/page');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const heading = await page.getByRole('heading', { level: 1 }).innerText();
    await page.getByRole('main').getByRole('link', { name: 'Back to the rankings' }).click();
    await page.waitForURL(`${runtime.url}/`);

    // Assess
    expect(heading.toLowerCase()).toContain('not found');
    expect(new URL(page.url()).pathname).toBe('/');
  });
});
