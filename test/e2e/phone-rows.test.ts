import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardPage, RankedPublication } from '../../shared/schemas/ranking';
import { checkEveryPageTheSuiteVisits } from '../support/accessibility';
import { launchBrowser, screenshotPath } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

/** An iPhone 12-15 screen, in CSS pixels. */
const PHONE = { width: 390, height: 844 };
/** The smallest comfortable tap target (WCAG 2.5.5, Apple's and Google's guidelines). */
const TAP_TARGET_PX = 44;

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime({ seedPublications: 300 }), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA (test/support/accessibility.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

async function openPhonePage(path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(`${runtime.url}${path}`);
  return page;
}

/** The row of `name` on a virtual board, scrolled to: only rows near the viewport are rendered. */
async function scrollToRow(page: Page, board: Locator, name: string): Promise<Locator> {
  const row = board.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  for (let step = 0; step < 100 && (await row.count()) === 0; step += 1) {
    await page.mouse.wheel(0, 500);
    await page.waitForTimeout(50);
  }
  await row.scrollIntoViewIfNeeded();
  return row;
}

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
  width: number;
  height: number;
}

/** What a reader of a row can see and tap, measured in the laid-out page. */
interface RowLayout {
  name: Box & { text: string; scrollWidth: number; clientWidth: number; scrollHeight: number; clientHeight: number };
  badge: Box | null;
  targets: (Box & { label: string })[];
}

function measureRow(row: Locator): Promise<RowLayout> {
  return row.evaluate((element) => {
    const box = (node: Element) => {
      const { top, bottom, left, right, width, height } = node.getBoundingClientRect();
      return { top, bottom, left, right, width, height };
    };
    const name = element.querySelector('a[href^="/pub/"]') as HTMLElement;
    const badge = [...element.querySelectorAll('span')].find((span) => span.textContent === 'Dormant') ?? null;
    return {
      name: {
        ...box(name),
        text: name.textContent ?? '',
        scrollWidth: name.scrollWidth,
        clientWidth: name.clientWidth,
        scrollHeight: name.scrollHeight,
        clientHeight: name.clientHeight,
      },
      badge: badge ? box(badge) : null,
      targets: [...element.querySelectorAll('a, button')].map((target) => ({
        ...box(target),
        label: target.getAttribute('aria-label') ?? target.textContent ?? '',
      })),
    };
  });
}

describe('publication rows on a phone', () => {
  it('shows the whole name of a dormant publication, its badge beside or under it, and only targets of 44 px', async () => {
    // Prepare: the dormant publication with the longest name near the top of the board.
    const top = (await (await runtime.get('/api/i/toppubs/load/pubs?limit=100')).json()) as BoardPage;
    const dormant = top.items
      .filter((item) => !item.isActive)
      .reduce<RankedPublication | undefined>(
        (longest, item) => (longest && longest.name.length >= item.name.length ? longest : item),
        undefined,
      );
    if (!dormant) throw new Error('The seeded board has no dormant publication in its first 100 rows');
    const page = await openPhonePage('/');
    const board = page.getByRole('table', { name: 'Most followed publications' });

    // Act
    const row = await scrollToRow(page, board, dormant.name);
    const layout = await measureRow(row);
    await row.screenshot({ path: screenshotPath('phone-row-dormant') });

    // Assess: the name is not cut off, and the badge does not sit on it.
    expect(layout.name.text).toBe(dormant.name);
    expect(layout.name.scrollWidth).toBeLessThanOrEqual(layout.name.clientWidth);
    expect(layout.name.scrollHeight).toBeLessThanOrEqual(layout.name.clientHeight);
    expect(layout.badge).not.toBeNull();
    const badge = layout.badge as Box;
    const besideOrUnder = badge.left >= layout.name.right - 1 || badge.top >= layout.name.bottom - 1;
    expect(besideOrUnder, `badge ${JSON.stringify(badge)} overlaps name ${JSON.stringify(layout.name)}`).toBe(true);
    expect(badge.right).toBeLessThanOrEqual(PHONE.width);

    // Assess: every link and button of the row is a comfortable tap target.
    expect(layout.targets.map((target) => target.label)).toEqual(
      expect.arrayContaining([dormant.name, `Visit ${dormant.name} (opens in a new tab)`, `Follow ${dormant.name}`]),
    );
    for (const target of layout.targets) {
      expect(target.height, `${target.label} is ${target.height} px high`).toBeGreaterThanOrEqual(TAP_TARGET_PX);
      expect(target.width, `${target.label} is ${target.width} px wide`).toBeGreaterThanOrEqual(TAP_TARGET_PX);
    }
  });

  it('cuts off no name on the first screen of a board', async () => {
    // Prepare
    const page = await openPhonePage('/');
    const rows = page.getByRole('table', { name: 'Most followed publications' }).getByRole('row');
    await rows.nth(3).waitFor();

    // Act
    const layouts = await Promise.all((await rows.all()).slice(1, 8).map(measureRow));

    // Assess
    for (const layout of layouts) {
      expect(layout.name.scrollWidth, layout.name.text).toBeLessThanOrEqual(layout.name.clientWidth);
      expect(layout.name.scrollHeight, layout.name.text).toBeLessThanOrEqual(layout.name.clientHeight);
    }
  });

  it('fits more than one and a half publications on the first screen of /', async () => {
    // Prepare
    const page = await openPhonePage('/');
    const rows = page.getByRole('table', { name: 'Most followed publications' }).getByRole('row');
    await rows.nth(2).waitFor();

    // Act: how much of each row is inside the first viewport, in rows.
    const visible = await page.evaluate(() =>
      [...document.querySelectorAll('[role="table"] [role="rowgroup"] [role="row"]')]
        .map((row) => row.getBoundingClientRect())
        .filter((box) => box.height > 0)
        .reduce((sum, box) => sum + Math.max(0, Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0)) / box.height, 0),
    );
    await page.screenshot({ path: screenshotPath('phone-first-screen') });

    // Assess
    expect(visible).toBeGreaterThan(1.5);
  });

  it('keeps search results apart, with a gap between cards', async () => {
    // Prepare
    const page = await openPhonePage('/search?q=the');
    const results = page.getByRole('table', { name: /results/i }).getByRole('row');
    await results.nth(3).waitFor();

    // Act
    const boxes = await Promise.all(
      (await results.all()).slice(1, 6).map((row) => row.evaluate((element) => element.getBoundingClientRect().toJSON() as Box)),
    );
    await page.screenshot({ path: screenshotPath('phone-search-results') });

    // Assess
    for (let index = 1; index < boxes.length; index += 1) {
      const gap = (boxes[index] as Box).top - (boxes[index - 1] as Box).bottom;
      expect(gap, `gap between results ${index} and ${index + 1}`).toBeGreaterThanOrEqual(8);
    }
  });
});
