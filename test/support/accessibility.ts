import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ImpactValue, Result, RunOptions } from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterEach } from 'vitest';
import { expectOpenPagesFitPhones } from './phone-overflow';

/**
 * axe-core's own build, evaluated in the page through DevTools, so the page's CSP does not apply.
 * Its 17 characters outside ASCII (in strings, and one identifier) are written as \u escapes,
 * the same program: as a one-byte string, sending and evaluating its 650 KB in a page takes about
 * 15% less time (some 60 ms a page on this machine).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8').replace(
  /[\u0080-\uffff]/g,
  (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
);

/**
 * axe-core in every document the context loads, from its start: for a page that loads one
 * document after another, sent to the browser once rather than with each check (650 KB each time).
 */
export async function loadAxeInEveryDocument(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: AXE_SOURCE });
}

/** WCAG 2.1 levels A and AA: what the product promises (docs/accessibility.md). */
const RUN_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
  resultTypes: ['violations'],
};

const FAILING_IMPACTS: readonly ImpactValue[] = ['serious', 'critical'];

export interface AccessibilityWaiver {
  /** The axe rule id, e.g. 'color-contrast'. */
  rule: string;
  /** The one element it applies to, as axe names it in its report (a CSS selector). */
  selector: string;
  /** Why the rule cannot hold there: reviewed like code, never "to make the test pass". */
  reason: string;
}

/**
 * Rules waived for one element each. Empty: every page the suite visits meets WCAG 2.1 AA.
 * A waiver added here names its rule, its one element and its reason.
 */
export const ACCESSIBILITY_WAIVERS: readonly AccessibilityWaiver[] = [];

export class AccessibilityViolations extends Error {
  constructor(
    readonly state: string,
    readonly violations: readonly Result[],
  ) {
    super(`${state}: ${violations.length} serious or critical WCAG 2.1 AA violation(s)\n${violations.map(describe).join('\n')}`);
    this.name = 'AccessibilityViolations';
  }
}

/** Elements named per rule: enough to find the pattern, short enough to read. */
const ELEMENTS_SHOWN = 5;

function describe(violation: Result): string {
  const nodes = violation.nodes
    .slice(0, ELEMENTS_SHOWN)
    .map((node) => `    ${node.target.join(' ')}\n      ${node.failureSummary?.replaceAll('\n', '\n      ') ?? ''}`);
  const more = violation.nodes.length > ELEMENTS_SHOWN ? [`    ...and ${violation.nodes.length - ELEMENTS_SHOWN} more`] : [];
  return [
    `  [${violation.impact ?? 'unknown'}] ${violation.id}: ${violation.help} (${violation.helpUrl})`,
    ...nodes,
    ...more,
  ].join('\n');
}

function isWaived(waivers: readonly AccessibilityWaiver[], rule: string, target: string): boolean {
  return waivers.some((waiver) => waiver.rule === rule && waiver.selector === target);
}

/**
 * A page checked with the standard waivers and unchanged since (no node, attribute or text
 * changed, same document): checking it again would give the same answer.
 */
interface CheckedWindow {
  __accessibilityChecked?: boolean;
  __accessibilityObserver?: MutationObserver;
}

export async function unchangedSinceChecked(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as CheckedWindow).__accessibilityChecked === true).catch(() => false);
}

/** The serious and critical violations on the page as it is now, waived elements left out. */
export async function seriousViolations(
  page: Page,
  waivers: readonly AccessibilityWaiver[] = ACCESSIBILITY_WAIVERS,
): Promise<Result[]> {
  // Colours are judged at rest: halfway through a modal's fade-in, text behind the overlay is
  // neither on the page's background nor hidden, and its contrast is whatever that frame shows.
  // At rest means two frames in a row with nothing moving, as a change can start a transition a
  // frame after it is made: a toast pushed back by the next one fades a frame later, and was
  // read half-faded (2.7:1) when only the animations running at first were awaited.
  await page.evaluate(async () => {
    const moving = () =>
      document
        .getAnimations()
        .filter((animation) => animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity);
    const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const giveUpAt = performance.now() + 5_000;
    for (let stillFrames = 0; stillFrames < 2 && performance.now() < giveUpAt;) {
      const running = moving();
      if (running.length > 0) {
        stillFrames = 0;
        await Promise.all(running.map((animation) => animation.finished)).catch(() => undefined);
      } else {
        stillFrames += 1;
      }
      await nextFrame();
    }
  });
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    async ({ options, markChecked }) => {
      const checked = window as unknown as CheckedWindow;
      // Marked before the run, so a change made while axe reads the page marks it changed again.
      if (markChecked) {
        checked.__accessibilityChecked = true;
        checked.__accessibilityObserver ??= new MutationObserver(() => (checked.__accessibilityChecked = false));
        checked.__accessibilityObserver.observe(document, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
      }
      return await (window as unknown as { axe: { run: (context: Document, o: unknown) => Promise<AxeResults> } }).axe.run(
        document,
        options,
      );
    },
    { options: RUN_OPTIONS as unknown as Record<string, unknown>, markChecked: waivers === ACCESSIBILITY_WAIVERS },
  );
  return results.violations
    .filter((violation) => FAILING_IMPACTS.includes(violation.impact ?? 'minor'))
    .map((violation) => ({
      ...violation,
      nodes: violation.nodes.filter((node) => !isWaived(waivers, violation.id, node.target.join(' '))),
    }))
    .filter((violation) => violation.nodes.length > 0);
}

/** Fails, naming each rule and element, when the page as it is now has a serious or critical violation. */
export async function expectAccessible(
  page: Page,
  state: string,
  waivers: readonly AccessibilityWaiver[] = ACCESSIBILITY_WAIVERS,
): Promise<void> {
  const violations = await seriousViolations(page, waivers);
  if (violations.length > 0) throw new AccessibilityViolations(state, violations);
}

/**
 * Every page still open in the browser, checked as the test left it: run after each browser
 * test, so every page a suite visits is checked without a list of pages to keep up to date. A
 * page the test itself checked and did not change since is not checked twice.
 */
export async function expectOpenPagesAccessible(browser: Browser, testName: string): Promise<void> {
  for (const context of browser.contexts()) {
    for (const page of context.pages()) {
      if (page.isClosed() || page.url() === 'about:blank' || (await unchangedSinceChecked(page))) continue;
      await expectAccessible(page, `${testName}, ${new URL(page.url()).pathname} at ${page.viewportSize()?.width ?? '?'} px`);
    }
  }
}

/**
 * For a browser suite: after each test, every page it left open is checked (for WCAG 2.1 AA, and
 * at a phone's width for anything wider than the screen), then its browser
 * contexts are closed so the next test starts clean, but for those `keepOpen` names (a suite
 * that reuses a context makes each test's start clean itself). A test that already failed is not
 * checked again (its own failure is the one to read).
 */
export function checkEveryPageTheSuiteVisits(
  browser: () => Browser | undefined,
  keepOpen: () => readonly BrowserContext[] = () => [],
): void {
  afterEach(async (context) => {
    const current = browser();
    if (!current) return;
    try {
      if (context.task.result?.state !== 'fail') {
        // At a phone's width, nothing may be wider than the screen (test/support/phone-overflow.ts).
        await expectOpenPagesFitPhones(current, context.task.name);
        await expectOpenPagesAccessible(current, context.task.name);
      }
    } finally {
      const kept = keepOpen();
      for (const browserContext of current.contexts()) if (!kept.includes(browserContext)) await browserContext.close();
    }
  });
}
