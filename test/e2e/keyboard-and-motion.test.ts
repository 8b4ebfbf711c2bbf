import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEveryPageTheSuiteVisits } from '../support/accessibility';
import { launchBrowser } from '../support/browser';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime({ seedPublications: 120 }), launchBrowser()]);
});

checkEveryPageTheSuiteVisits(() => browser);

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function openPage(path: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options });
  const page = await context.newPage();
  await page.goto(`${runtime.url}${path}`);
  return page;
}

const boardLoaded = (page: Page, name: string) =>
  page.getByRole('table', { name, exact: true }).getByRole('link').first().waitFor();

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/** What a sighted keyboard user sees of the focused element: its outline or ring. */
const focusIndicator = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    return {
      label: `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`,
      outline: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
      ring: style.boxShadow !== 'none',
    };
  });

describe('keyboard paths', () => {
  it('offers a skip link first, which moves focus to the main content', async () => {
    // Prepare
    const page = await openPage('/');
    await boardLoaded(page, 'Most followed publications');

    // Act
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    const skipFocusedAndShown = (await isFocused(skip)) && (await skip.isVisible());
    await page.keyboard.press('Enter');

    // Assess
    expect(skipFocusedAndShown).toBe(true);
    await expect(isFocused(page.getByRole('main'))).resolves.toBe(true);
  });

  it('shows a visible focus indicator on every control reached with Tab', async () => {
    // Prepare
    const page = await openPage('/');
    await boardLoaded(page, 'Most followed publications');

    // Act: the skip link, the top bar, the board controls and the first rows
    const missing: string[] = [];
    for (let step = 0; step < 25; step += 1) {
      await page.keyboard.press('Tab');
      const indicator = await focusIndicator(page);
      if (!indicator.outline && !indicator.ring) missing.push(indicator.label);
    }

    // Assess
    expect(missing).toEqual([]);
  });

  it('gives focus back to the Login button when the login modal closes', async () => {
    // Prepare
    const page = await openPage('/');
    const login = page.getByRole('button', { name: 'Login', exact: true });
    await login.focus();

    // Act
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByRole('button', { name: 'Continue with email' }).waitFor();
    // Radix moves focus into the dialog once it has mounted.
    await expect.poll(() => page.getByRole('dialog').evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // Assess
    await expect.poll(() => isFocused(login)).toBe(true);
  });

  it('runs the phone menu from the keyboard: open, move, follow, and focus back on Escape', async () => {
    // Prepare
    const page = await openPage('/', { viewport: PHONE });
    const menuButton = page.getByRole('button', { name: 'Menu' });
    await menuButton.focus();

    // Act: open and close with Escape
    await page.keyboard.press('Enter');
    await page.getByRole('menu').getByRole('menuitem').first().waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    const focusBack = await isFocused(menuButton);

    // Act: open again and follow the second item with the arrow keys
    await page.keyboard.press('Enter');
    const items = page.getByRole('menu').getByRole('menuitem');
    await items.first().waitFor();
    const second = (await items.nth(1).innerText()).trim();
    // Opened from the keyboard, the menu puts focus on its first item; each key acts on the item focused.
    await expect.poll(() => isFocused(items.first())).toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => isFocused(items.nth(1))).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname !== '/');

    // Assess
    expect(focusBack).toBe(true);
    expect(second).toBe('Topics');
    expect(new URL(page.url()).pathname).toBe('/topics');
  });

  it('switches boards and opens a row from the keyboard alone', async () => {
    // Prepare
    const page = await openPage('/');
    await boardLoaded(page, 'Most followed publications');

    // Act: focus the board switch, follow it with Enter
    const activeOnly = page.getByRole('group', { name: 'Publications' }).getByRole('link', { name: 'Active only' });
    await activeOnly.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/active$/);
    await boardLoaded(page, 'Most followed active publications');
    // Tab forward from the switch until a publication link in the board has focus.
    const board = page.getByRole('table', { name: 'Most followed active publications', exact: true });
    let reachedRow = false;
    for (let step = 0; step < 20 && !reachedRow; step += 1) {
      await page.keyboard.press('Tab');
      reachedRow = await board.evaluate(
        (table) => table.contains(document.activeElement) && document.activeElement?.tagName === 'A',
      );
    }

    // Assess
    expect(reachedRow).toBe(true);
  });
});

describe('page titles', () => {
  it('changes the title on every route change and announces the new page', async () => {
    // Prepare
    const page = await openPage('/');
    await boardLoaded(page, 'Most followed publications');
    const announcer = page.getByRole('status').filter({ hasText: /\S/ });
    const titles = [await page.title()];
    const announced: string[] = [];

    // Act: follow links as a user would
    for (const [link, path] of [
      [page.getByRole('group', { name: 'Publications' }).getByRole('link', { name: 'Active only' }), '/active'],
      [page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Topics' }), '/topics'],
      [page.getByRole('contentinfo').getByRole('link', { name: 'About' }), '/about'],
    ] as const) {
      const before = titles.at(-1);
      await link.click();
      await page.waitForURL((url) => url.pathname === path);
      await page.waitForFunction((previous) => document.title !== previous, before);
      titles.push(await page.title());
      await expect.poll(() => announcer.last().innerText()).toBe(titles.at(-1));
      announced.push(await announcer.last().innerText());
    }

    // Assess
    expect(new Set(titles).size).toBe(titles.length);
    expect(announced).toEqual(titles.slice(1));
  });
});

describe('reduced motion', () => {
  it('hides and shows the top bar without animation when the system asks for less motion', async () => {
    // Prepare
    const page = await openPage('/', { reducedMotion: 'reduce' });
    await boardLoaded(page, 'Most followed publications');
    const banner = page.getByRole('banner');

    // Act
    const duration = await banner.evaluate((bar) => getComputedStyle(bar).transitionDuration);
    await page.mouse.wheel(0, 900);
    await page.waitForFunction(() => (document.querySelector('header')?.getBoundingClientRect().bottom ?? 1) <= 0);

    // Assess
    expect(Math.max(...duration.split(',').map((part) => Number.parseFloat(part)))).toBeLessThanOrEqual(0.001);
  });

  it('animates the top bar for everyone else', async () => {
    // Prepare
    const page = await openPage('/', { reducedMotion: 'no-preference' });
    await boardLoaded(page, 'Most followed publications');

    // Act
    const duration = await page.getByRole('banner').evaluate((bar) => getComputedStyle(bar).transitionDuration);

    // Assess
    expect(Math.max(...duration.split(',').map((part) => Number.parseFloat(part)))).toBeGreaterThan(0.1);
  });

  it('moves the route progress bar without animation when the system asks for less motion', async () => {
    // Prepare: the About page's code is held back until the progress bar has been read, so the bar shows
    const page = await openPage('/', { reducedMotion: 'reduce' });
    await boardLoaded(page, 'Most followed publications');
    let releaseCode = () => {};
    const codeReleased = new Promise<void>((resolve) => (releaseCode = resolve));
    await page.route(/\/assets\/about-page[^/]*\.js$/, async (route) => {
      await codeReleased;
      await route.continue();
    });

    // Act
    await page.getByRole('contentinfo').getByRole('link', { name: 'About' }).click();
    const bar = page.locator('.bprogress .bar');
    await bar.waitFor({ state: 'attached' });
    const duration = await bar.evaluate((element) => getComputedStyle(element).transitionDuration);
    releaseCode();
    await page.getByRole('heading', { level: 1, name: /^What .+ measures$/ }).waitFor();

    // Assess
    expect(Math.max(...duration.split(',').map((part) => Number.parseFloat(part)))).toBeLessThanOrEqual(0.001);
  });
});
