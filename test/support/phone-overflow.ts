import type { Browser, Page } from 'playwright-core';

/** Phones and up to the spec's xxs breakpoint (480 px): the widths at which nothing may be wider than the screen. */
export const PHONE_MAX_WIDTH = 480;

/**
 * Sub-pixel slack: a box laid out at 390.4 px on a 390 px screen is rounding, not overflow
 * (layout works in 1/64 px, and a centred box of odd width lands on a half pixel).
 */
const SLACK_PX = 1;

/** Elements named per failure: enough to find the pattern, short enough to read. */
const ELEMENTS_SHOWN = 8;

export interface OverflowingElement {
  /** A short selector: tag, id or first classes, and its text's start. */
  element: string;
  /** Its box's right edge, in CSS pixels from the viewport's left. */
  right: number;
}

export interface OverflowReport {
  viewportWidth: number;
  /** document.documentElement.scrollWidth: the page's width, which a reader can scroll sideways to. */
  scrollWidth: number;
  /** The outermost elements sticking out past the viewport's right edge (none of them inside another one listed). */
  elements: OverflowingElement[];
}

export class PhoneOverflow extends Error {
  constructor(
    readonly state: string,
    readonly report: OverflowReport,
  ) {
    const { viewportWidth, scrollWidth, elements } = report;
    const shown = elements.slice(0, ELEMENTS_SHOWN).map((item) => `    ${item.element}: right edge at ${item.right} px`);
    const more = elements.length > ELEMENTS_SHOWN ? [`    ...and ${elements.length - ELEMENTS_SHOWN} more`] : [];
    super(
      [
        `${state}: wider than the ${viewportWidth} px screen (the page is ${scrollWidth} px wide)`,
        ...(elements.length ? ['  past its right edge:', ...shown, ...more] : []),
      ].join('\n'),
    );
    this.name = 'PhoneOverflow';
  }
}

/**
 * What sticks out past the right edge of the viewport, read in the page. The rule:
 * - the page itself: `document.documentElement.scrollWidth` is at most `innerWidth`;
 * - every element drawn (not display: none, not visibility: hidden, with a box of some size):
 *   its bounding box ends at or before `innerWidth` (the screen's width). Left out: elements inside a container that
 *   clips or scrolls sideways (overflow-x other than visible, html and body aside): what they
 *   hold is reached by scrolling that container, and the container's own box is checked; and
 *   elements clipped to nothing, as `.visually-hidden` is (clip: rect(0 0 0 0), or clip-path
 *   inset(50%)). A skip link moved off screen upwards (translateY) or to the left never reaches
 *   the right edge, so it needs no exception.
 * Only the outermost overflowing element of each branch is listed: its children stick out with it.
 */
export async function measureOverflow(page: Page, screenWidth: number): Promise<OverflowReport> {
  return page.evaluate(
    ({ slack, screenWidth }) => {
      // The screen's width as the test set it: on an emulated phone, a page wider than its screen
      // widens the layout viewport (innerWidth then reads the page's width, not the screen's).
      const viewportWidth = Math.min(window.innerWidth, screenWidth);
      const root = document.documentElement;
      const clipsItsContent = (element: Element) => {
        if (element === root || element === document.body) return false;
        const overflowX = getComputedStyle(element).overflowX;
        return overflowX !== 'visible';
      };
      const clippedToNothing = (style: CSSStyleDeclaration) =>
        /rect\(\s*0(px)?[\s,]+0(px)?[\s,]+0(px)?[\s,]+0(px)?\s*\)/.test(style.clip) || /inset\(\s*50%\s*\)/.test(style.clipPath);
      const describe = (element: Element) => {
        const id = element.id ? `#${element.id}` : '';
        const classes = [...element.classList]
          .slice(0, 2)
          .map((name) => `.${name}`)
          .join('');
        const label = element.getAttribute('aria-label');
        const text = (label ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();
        const quoted = text ? ` "${text.length > 40 ? `${text.slice(0, 40)}…` : text}"` : '';
        return `${element.tagName.toLowerCase()}${id}${classes}${quoted}`;
      };
      const elements: { element: string; right: number }[] = [];
      const walk = (element: Element, insideClip: boolean) => {
        const style = getComputedStyle(element);
        if (style.display === 'none') return;
        if (clippedToNothing(style)) return;
        let listed = false;
        if (!insideClip && style.visibility !== 'hidden' && style.display !== 'contents') {
          const box = element.getBoundingClientRect();
          if (box.width > 0 && box.height > 0 && box.right > viewportWidth + slack) {
            elements.push({ element: describe(element), right: Math.round(box.right * 10) / 10 });
            listed = true;
          }
        }
        // Below a listed element only what sticks out further would add nothing: it is the one to fix.
        if (listed) return;
        const clips = insideClip || clipsItsContent(element);
        for (const child of element.children) walk(child, clips);
      };
      if (document.body) walk(document.body, false);
      return { viewportWidth, scrollWidth: root.scrollWidth, elements };
    },
    { slack: SLACK_PX, screenWidth },
  );
}

/** Fails, naming each element and its right edge, when a page at phone width is wider than its screen. */
export async function expectFitsPhoneWidth(page: Page, state: string): Promise<void> {
  const width = page.viewportSize()?.width;
  if (width === undefined || width > PHONE_MAX_WIDTH) return;
  const report = await measureOverflow(page, width);
  if (report.scrollWidth > report.viewportWidth || report.elements.length > 0) throw new PhoneOverflow(state, report);
}

/**
 * Every page still open in the browser whose viewport is a phone's (at most 480 px wide),
 * checked as the test left it: run after each browser test with the accessibility check
 * (checkEveryPageTheSuiteVisits), so no test has to ask for it.
 */
export async function expectOpenPagesFitPhones(browser: Browser, testName: string): Promise<void> {
  for (const context of browser.contexts()) {
    for (const page of context.pages()) {
      if (page.isClosed() || page.url() === 'about:blank') continue;
      const width = page.viewportSize()?.width;
      if (width === undefined || width > PHONE_MAX_WIDTH) continue;
      await expectFitsPhoneWidth(page, `${testName}, ${new URL(page.url()).pathname} at ${width} px`);
    }
  }
}
