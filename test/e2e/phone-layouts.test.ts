import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { shopScope } from '../../functions/lib/db/entities/store-figures';
import type { BoardPage, RankedPublication } from '../../shared/schemas/ranking';
import { createApiClient, type SignedInUser } from '../support/api-client';
import { checkEveryPageTheSuiteVisits } from '../support/accessibility';
import { launchBrowser, screenshotPath } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { openShop } from '../support/penpay';
import { expectFitsPhoneWidth, PhoneOverflow } from '../support/phone-overflow';
import { storyInTable } from '../support/stories';

/** An iPhone 12-15 screen, in CSS pixels: the width issue 37 saw these pages overflow at. */
const PHONE = { width: 390, height: 844 };

/**
 * A story shared under its address, as a page with no title of its own is: one long word with
 * no place to break (no hyphen, no space), as issue 37's was.
 */
const LONG_URL_TITLE =
  'https://www.exampleengineeringblog.com/2024/05/how_we_rebuilt_our_deployment_pipeline_without_downtime_and_what_we_learned';

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime({ seedPublications: 120 }), launchBrowser()]);
});

// Every page these tests leave open is checked for WCAG 2.1 AA and, at a phone's width, for
// anything wider than the screen (test/support/accessibility.ts, test/support/phone-overflow.ts).
checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

/** A phone's browser, signed in as `person` when given. */
async function phoneContext(person?: SignedInUser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  if (person) {
    await context.addCookies([
      { name: 'ssoat', value: person.token, url: runtime.url, httpOnly: true, secure: true, sameSite: 'Lax' },
      { name: 'ssoh', value: '1', url: runtime.url, secure: true, sameSite: 'Lax' },
    ]);
  }
  return context;
}

async function openPhonePage(path: string, person?: SignedInUser): Promise<Page> {
  const page = await (await phoneContext(person)).newPage();
  await page.goto(`${runtime.url}${path}`);
  return page;
}

/** How far right an element reaches, in CSS pixels. */
const rightEdge = (page: Page, selector: Parameters<Page['locator']>[0]) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => element.getBoundingClientRect().right);

describe('phone layouts (issue 37) at 390 × 844', () => {
  it('the publication page: a big publication’s four figures fit, none cut off', async () => {
    // Prepare: the dormant publication with the most followers near the top of the board (big
    // figures, and the longest status), else the one with the most followers.
    const top = (await (await runtime.get('/api/i/toppubs/load/pubs?limit=100')).json()) as BoardPage;
    const dormant = top.items.filter((item) => !item.isActive);
    const pub = (dormant[0] ?? top.items[0]) as RankedPublication;

    // Act
    const page = await openPhonePage(`/pub/${pub.slug}`);
    const stats = page.locator('dl').filter({ hasText: 'Followers' }).first();
    await stats.waitFor();
    await page.screenshot({ path: screenshotPath('phone-layout-publication') });

    // Assess: each figure is whole inside its card (the page-wide check runs after the test)
    const cards = await stats.locator(':scope > div').evaluateAll((divs) =>
      divs.map((div) => ({
        text: (div as HTMLElement).innerText,
        fits: [...div.querySelectorAll('dt, dd')].every(
          (cell) =>
            cell.scrollWidth <= cell.clientWidth + 1 &&
            cell.getBoundingClientRect().right <= div.getBoundingClientRect().right + 1,
        ),
      })),
    );
    expect(cards).toHaveLength(4);
    for (const card of cards) expect(card.fits, card.text).toBe(true);
  });

  it('the board switch: the selected pill sits within its row, its text centred', async () => {
    // Act
    const page = await openPhonePage('/');
    const group = page.getByRole('group', { name: 'Publications' });
    await group.waitFor();
    await page.getByRole('navigation', { name: 'Board views' }).screenshot({ path: screenshotPath('phone-layout-board-switch') });

    // Assess: the pill inside the group's padding, its text's middle at the pill's middle
    const layout = await group.evaluate((element) => {
      const pill = element.querySelector('[aria-current="page"]') as HTMLElement;
      const range = document.createRange();
      range.selectNodeContents(pill);
      const text = range.getBoundingClientRect();
      return {
        group: element.getBoundingClientRect().toJSON(),
        pill: pill.getBoundingClientRect().toJSON(),
        text: text.toJSON(),
      };
    });
    expect(layout.pill.top).toBeGreaterThanOrEqual(layout.group.top);
    expect(layout.pill.bottom).toBeLessThanOrEqual(layout.group.bottom);
    const middle = (box: { top: number; bottom: number }) => (box.top + box.bottom) / 2;
    expect(Math.abs(middle(layout.text) - middle(layout.pill))).toBeLessThanOrEqual(2);
  });

  it('the stories feed: a story titled by a long address wraps, its like button on screen, and the Share dialog fits', async () => {
    // Prepare: a story whose title is its address, and a reader who may share
    const api = createApiClient(runtime);
    const sharer = await api.signIn('long-url-sharer');
    await storyInTable(sharer, LONG_URL_TITLE);
    const reader = await api.signIn('phone-reader');

    // Act
    const page = await openPhonePage('/stories/new', reader);
    const card = page.getByRole('article', { name: LONG_URL_TITLE });
    await card.waitFor();
    await page.screenshot({ path: screenshotPath('phone-layout-stories') });
    const likeRight = await card
      .getByRole('button', { name: /^Like/ })
      .evaluate((button) => button.getBoundingClientRect().right);
    await page.getByRole('button', { name: 'Share a story' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share a story' });
    await dialog.waitFor();
    // Measured where a person sees it settle: once its entrance animation has finished.
    await dialog.evaluate((element) =>
      Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished)),
    );
    await page.screenshot({ path: screenshotPath('phone-layout-share-dialog') });

    // Assess
    expect(likeRight).toBeLessThanOrEqual(PHONE.width);
    expect(await rightEdge(page, 'role=dialog[name="Share a story"]')).toBeLessThanOrEqual(PHONE.width);
  });

  it('the merchant’s recent sales: each sale’s buyer, item and amount apart, none drawn over another', async () => {
    // Prepare: a shop with sales to buyers with long names and addresses, of several units
    const api = createApiClient(runtime);
    const shop = await openShop({ runtime, api }, 'phone-merchant');
    const paidAt = Date.now();
    for (const [index, units] of [3, 1, 12].entries()) {
      await getDb()
        .entities.storeSale.create({
          merchantAccountId: shop.merchant.id,
          scope: shopScope,
          transactionId: `phone-sale-${index}`,
          kind: 'order',
          invoiceId: `phone-invoice-${index}`,
          customerId: `phone-customer-${index}`,
          customerName: 'Maximiliana Fitzgerald-Oyelaran',
          customerEmail: 'maximiliana.fitzgerald-oyelaran@example-customers.com',
          description: 'Handmade ceramic pour-over coffee set',
          units,
          amountMinor: 4_500 * units,
          currency: 'USD',
          paidAt: new Date(paidAt - index * 3_600_000).toISOString(),
        })
        .go();
    }

    // Act
    const page = await openPhonePage('/merchant', shop.owner);
    const sales = page.getByRole('table', { name: 'Recent sales' });
    await sales.waitFor();
    await sales.scrollIntoViewIfNeeded();
    await page.getByRole('region', { name: 'Recent sales' }).screenshot({ path: screenshotPath('phone-layout-recent-sales') });

    // Assess: within each sale, no two cells' text overlaps (text can spill out of its cell's box)
    const overlaps = await sales.locator('tbody tr').evaluateAll((rows) =>
      rows.flatMap((row) => {
        const textBox = (cell: Element) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return range.getBoundingClientRect();
        };
        const boxes = [...row.querySelectorAll('td')].map((cell) => ({
          text: (cell as HTMLElement).innerText,
          box: textBox(cell),
        }));
        return boxes.flatMap((a, i) =>
          boxes
            .slice(i + 1)
            .filter(
              ({ box: b }) =>
                a.box.left < b.right - 1 && b.left < a.box.right - 1 && a.box.top < b.bottom - 1 && b.top < a.box.bottom - 1,
            )
            .map((b) => `${a.text} / ${b.text}`),
        );
      }),
    );
    expect(overlaps).toEqual([]);
  });
});

describe('the phone overflow checker itself', () => {
  it('fails on an element wider than the screen, naming it and its right edge', async () => {
    // Prepare
    const page = await openPhonePage('/about');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.evaluate(() => {
      const wide = document.createElement('div');
      wide.id = 'too-wide';
      wide.style.width = '500px';
      wide.textContent = 'A banner made for a desktop';
      document.body.append(wide);
    });

    // Act
    const failure = await expectFitsPhoneWidth(page, 'a page with a 500 px banner').catch((error: unknown) => error);
    await page.context().close();

    // Assess
    expect(failure).toBeInstanceOf(PhoneOverflow);
    expect((failure as PhoneOverflow).report.elements.map((element) => element.element)).toEqual([
      'div#too-wide "A banner made for a desktop"',
    ]);
    expect((failure as Error).message).toContain('div#too-wide "A banner made for a desktop": right edge at 500 px');
    expect((failure as Error).message).toMatch(/the page is 50\d px wide/);
  });

  it('passes a page that fits, a table scrolling sideways within it and visually hidden text included', async () => {
    // Prepare
    const page = await openPhonePage('/about');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.evaluate(() => {
      const scroller = document.createElement('div');
      scroller.style.overflowX = 'auto';
      scroller.innerHTML = '<div style="width: 900px">A wide table, scrolled within its box</div>';
      const hidden = document.createElement('span');
      hidden.className = 'visually-hidden';
      hidden.textContent = 'Read by screen readers only';
      document.body.append(scroller, hidden);
    });

    // Act
    const failure = await expectFitsPhoneWidth(page, 'a page that fits').catch((error: unknown) => error);
    await page.context().close();

    // Assess
    expect(failure).toBeUndefined();
  });
});
