import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccessibilityViolations,
  checkEveryPageTheSuiteVisits,
  expectAccessible,
  expectOpenPagesAccessible,
  loadAxeInEveryDocument,
  unchangedSinceChecked,
} from '../support/accessibility';
import { createApiClient } from '../support/api-client';
import { launchBrowser } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { addGrade, addProduct, openShop } from '../support/penpay';

let runtime: TestRuntime;
let browser: Browser;
/** A shop taking payments, with a public product sold once and by subscription: its store pages are checked. */
let store: { handle: string; productStockId: string; gradeId: string; merchantAccountId: string };

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime({ seedPublications: 120 }), launchBrowser()]);
  const suite = { runtime, api: createApiClient(runtime) };
  const shop = await openShop(suite, 'a11y');
  const product = await addProduct(suite, shop, 'Zine club');
  const grade = await addGrade(suite, shop, product, 'Single issue', 1_200);
  await addGrade(suite, shop, product, 'Monthly club', 900, { plan: 'monthly' });
  store = {
    handle: shop.merchant.handle,
    productStockId: product.id,
    gradeId: grade.id,
    merchantAccountId: shop.merchant.id,
  };
});

checkEveryPageTheSuiteVisits(
  () => browser,
  () => (visitor ? [visitor.context()] : []),
);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

const VIEWPORTS = [
  { name: 'desktop', size: { width: 1280, height: 800 } },
  { name: 'phone', size: { width: 390, height: 844 } },
] as const;

/** The public pages of the ranking site, each with what shows it has loaded. */
const PAGES: { path: string; loaded: (page: Page) => Promise<unknown> }[] = [
  {
    path: '/',
    loaded: (page) => page.getByRole('table', { name: 'Most followed publications' }).getByRole('link').first().waitFor(),
  },
  { path: '/active', loaded: (page) => page.getByRole('table', { name: 'Most followed active publications' }).waitFor() },
  { path: '/growing', loaded: (page) => page.getByRole('table', { name: 'Fastest growing publications' }).waitFor() },
  {
    path: '/recent',
    loaded: (page) => page.getByRole('table', { name: 'Recently active publications' }).getByRole('link').first().waitFor(),
  },
  { path: '/topics', loaded: (page) => page.getByRole('heading', { level: 1 }).waitFor() },
  { path: '/topic/technology', loaded: (page) => page.getByRole('table', { name: /: most followed$/ }).waitFor() },
  { path: '/search', loaded: (page) => page.getByRole('searchbox', { name: 'Search publications' }).waitFor() },
  { path: '/about', loaded: (page) => page.getByRole('heading', { level: 1 }).waitFor() },
  { path: '/stories', loaded: (page) => page.getByRole('heading', { name: 'No stories yet' }).waitFor() },
  { path: '/notifications', loaded: (page) => page.getByRole('heading', { name: 'Log in to see your notifications' }).waitFor() },
  { path: '/stories/review', loaded: (page) => page.getByRole('heading', { name: 'Log in to review stories' }).waitFor() },
  { path: '/moderation', loaded: (page) => page.getByRole('heading', { name: 'Log in to moderate' }).waitFor() },
  { path: '/suggest', loaded: (page) => page.getByRole('heading', { name: 'Log in to suggest a publication' }).waitFor() },
  {
    path: '/suggestions/review',
    loaded: (page) => page.getByRole('heading', { name: 'Log in to review suggestions' }).waitFor(),
  },
  {
    path: '/unsubscribe?token=example',
    loaded: (page) => page.getByRole('button', { name: 'Stop notification emails' }).waitFor(),
  },
  { path: '/merchant', loaded: (page) => page.getByRole('heading', { name: 'Log in to sell on your own shop' }).waitFor() },
  { path: '/store/orders', loaded: (page) => page.getByRole('heading', { name: 'Log in to see your orders' }).waitFor() },
  { path: '/no/such/page', loaded: (page) => page.getByRole('heading', { level: 1, name: /not found/i }).waitFor() },
];

/** The store's pages for a visitor, at the addresses of the shop made before the suite (named for the test's title). */
const STORE_PAGES: { name: string; path: () => string; loaded: (page: Page) => Promise<unknown> }[] = [
  {
    name: '/shop/:handle',
    path: () => `/shop/${store.handle}`,
    loaded: (page) => page.getByRole('article', { name: 'Zine club' }).waitFor(),
  },
  {
    name: '/product/:productStockId',
    path: () => `/product/${store.productStockId}`,
    loaded: (page) =>
      page.getByRole('region', { name: 'Monthly club', exact: true }).getByRole('button', { name: 'Add to cart' }).waitFor(),
  },
  {
    name: '/product/:productStockId/grade/:productStockGradeId',
    path: () => `/product/${store.productStockId}/grade/${store.gradeId}`,
    loaded: (page) => page.getByRole('button', { name: 'Add to cart' }).waitFor(),
  },
  {
    name: '/cart/:merchantAccountId',
    path: () => `/cart/${store.merchantAccountId}`,
    loaded: (page) => page.getByRole('heading', { level: 1, name: 'Log in to see your cart' }).waitFor(),
  },
];

/**
 * The page the checks of the site's pages share: each test loads its own document in it, at
 * its viewport, as a first visit (the cookies and storage of the tests before are cleared).
 * A new browser context per test cost each test a renderer process, axe-core sent again (650 KB)
 * and every script and style fetched again, about a second on a loaded machine.
 */
let visitor: Page | undefined;

async function openPage(path: string, viewport: { width: number; height: number }): Promise<Page> {
  if (!visitor || visitor.isClosed()) {
    const context = await browser.newContext({ viewport });
    await loadAxeInEveryDocument(context);
    visitor = await context.newPage();
  } else {
    await visitor.context().clearCookies();
    await visitor.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await visitor.setViewportSize(viewport);
  }
  await visitor.goto(`${runtime.url}${path}`);
  return visitor;
}

/** A page in a browser context of its own, for the checker's own tests: they change pages and count them. */
async function openPageAlone(path: string, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${runtime.url}${path}`);
  return page;
}

describe('WCAG 2.1 AA on every page, checked by axe-core', () => {
  for (const viewport of VIEWPORTS) {
    for (const { path, loaded } of PAGES) {
      it(`${path} on a ${viewport.name}`, async () => {
        // Act
        const page = await openPage(path, viewport.size);
        // Not waiting for the network to go quiet (half a second a page at least): whatever
        // arrives after this check changes the page, and the check after the test reads it again.
        await loaded(page);

        // Assess
        await expectAccessible(page, `${path} on a ${viewport.name}`);
      });
    }

    for (const { name, path, loaded } of STORE_PAGES) {
      it(`${name} on a ${viewport.name}`, async () => {
        // Act
        const page = await openPage(path(), viewport.size);
        await loaded(page);

        // Assess
        await expectAccessible(page, `${name} on a ${viewport.name}`);
      });
    }

    it(`the login modal on a ${viewport.name}`, async () => {
      // Prepare
      const page = await openPage('/', viewport.size);
      await PAGES[0]?.loaded(page);

      // Act
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Continue with email' }).waitFor();
      await expectAccessible(page, `the login modal on a ${viewport.name}`);
      await dialog.getByRole('button', { name: 'Continue with email' }).click();
      await page.getByRole('textbox', { name: 'Email' }).waitFor();

      // Assess
      await expectAccessible(page, `the login modal's email step on a ${viewport.name}`);
    });

    it(`the products menu on a ${viewport.name}`, async () => {
      // Prepare
      const page = await openPage('/', viewport.size);
      await PAGES[0]?.loaded(page);

      // Act
      await page.getByRole('button', { name: 'Our products' }).click();
      await page.getByRole('menu').getByRole('menuitem').first().waitFor();

      // Assess
      await expectAccessible(page, `the products menu on a ${viewport.name}`);
    });
  }

  it('the main menu on a phone', async () => {
    // Prepare
    const page = await openPage('/', VIEWPORTS[1].size);

    // Act
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('menu').getByRole('menuitem').first().waitFor();

    // Assess
    await expectAccessible(page, 'the main menu on a phone');
    await expect(page.getByRole('menu').getByRole('menuitem').count()).resolves.toBeGreaterThan(0);
  });
});

describe('the checker itself', () => {
  // Only the pages of these tests are open while they run.
  beforeAll(async () => {
    await visitor?.context().close();
    visitor = undefined;
  });

  /** A paragraph of light grey text (2.3:1 on white): what the growth figures were before. */
  const addLowContrastText = (page: Page) =>
    page.evaluate(() => {
      const paragraph = document.createElement('p');
      paragraph.id = 'faint-note';
      paragraph.style.color = '#aaaaaa';
      paragraph.textContent = 'A note nobody can read';
      // Outside the app's root: the app replaces what the server rendered there when it starts,
      // which could take the note away between the checks of one test.
      document.body.append(paragraph);
    });

  it('fails on a serious violation, naming the rule and the element', async () => {
    // Prepare
    const page = await openPageAlone('/about', VIEWPORTS[0].size);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await addLowContrastText(page);

    // Act
    const failure = await expectAccessible(page, 'a page with faint text').catch((error: unknown) => error);
    await page.context().close();

    // Assess
    expect(failure).toBeInstanceOf(AccessibilityViolations);
    expect((failure as AccessibilityViolations).violations.map((violation) => violation.id)).toEqual(['color-contrast']);
    expect((failure as Error).message).toContain('color-contrast');
    expect((failure as Error).message).toContain('#faint-note');
  });

  it('checks again, after the test, a page that changed since the test checked it, and only such a page', async () => {
    // Prepare: two pages that pass, both checked
    const unchanged = await openPageAlone('/about', VIEWPORTS[0].size);
    const changed = await openPageAlone('/about', VIEWPORTS[0].size);
    for (const page of [unchanged, changed]) {
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectAccessible(page, 'before the change');
    }

    // Count axe's runs from here on, in a property of the page's window (not in its document)
    const countAxeRuns = (page: Page) =>
      page.evaluate(() => {
        const counted = window as unknown as { axe: { run: (...args: unknown[]) => unknown }; axeRuns: number };
        const run = counted.axe.run.bind(counted.axe);
        counted.axeRuns = 0;
        counted.axe.run = (...args: unknown[]) => {
          counted.axeRuns += 1;
          return run(...args);
        };
      });
    const axeRuns = (page: Page) => page.evaluate(() => (window as unknown as { axeRuns: number }).axeRuns);
    await countAxeRuns(unchanged);
    await countAxeRuns(changed);

    // Act: one of them changes after its check, as a test's last click would change it
    await addLowContrastText(changed);
    const failure = await expectOpenPagesAccessible(browser, 'after the change').catch((error: unknown) => error);
    await changed.evaluate(() => document.getElementById('faint-note')?.remove());
    const afterRepair = await expectOpenPagesAccessible(browser, 'after the repair').catch((error: unknown) => error);

    // Assess
    expect(failure).toBeInstanceOf(AccessibilityViolations);
    expect((failure as AccessibilityViolations).violations.map((violation) => violation.id)).toEqual(['color-contrast']);
    expect(afterRepair).toBeUndefined();
    await expect(axeRuns(unchanged)).resolves.toBe(0);
    await expect(axeRuns(changed)).resolves.toBe(2);
    await expect(unchangedSinceChecked(unchanged)).resolves.toBe(true);
    await expect(unchangedSinceChecked(changed)).resolves.toBe(true);
  });

  it('lets a waiver through only for the one element it names', async () => {
    // Prepare
    const page = await openPageAlone('/about', VIEWPORTS[0].size);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await addLowContrastText(page);
    const reason = 'test: a waiver applies to its own element only';

    // Act
    const waived = await expectAccessible(page, 'waived', [{ rule: 'color-contrast', selector: '#faint-note', reason }]);
    const otherElement = await expectAccessible(page, 'waived elsewhere', [
      { rule: 'color-contrast', selector: '#other', reason },
    ]).catch((error: unknown) => error);
    const otherRule = await expectAccessible(page, 'another rule waived', [
      { rule: 'link-in-text-block', selector: '#faint-note', reason },
    ]).catch((error: unknown) => error);
    await page.context().close();

    // Assess
    expect(waived).toBeUndefined();
    expect(otherElement).toBeInstanceOf(AccessibilityViolations);
    expect(otherRule).toBeInstanceOf(AccessibilityViolations);
  });
});
