/**
 * The spec's layout breakpoints ("sm 991/992, xs 767/768, xxs 480, xxxs 320; max width
 * 1200") and the only widths a media query may use, in CSS or in matchMedia. CSS modules cannot
 * import this (and postcss-custom-media is not in the toolchain), so the CSS files write the
 * numbers themselves, web/src/styles/global.css names them, and test/unit/breakpoints.test.ts
 * fails on any `@media` width not in MEDIA_QUERY_WIDTHS.
 *
 * Each breakpoint is the last width of its size (`max-width: 767px`); the next size starts one
 * pixel above (`min-width: 768px`).
 */
export const BREAKPOINTS = { sm: 991, xs: 767, xxs: 480, xxxs: 320 } as const;

/** The widest the page's content grows (--max-width in global.css). */
export const MAX_WIDTH = 1200;

/** Every width a media query may name: each breakpoint, the first width above sm and xs, and the max width. */
export const MEDIA_QUERY_WIDTHS: readonly number[] = [
  BREAKPOINTS.xxxs,
  BREAKPOINTS.xxs,
  BREAKPOINTS.xs,
  BREAKPOINTS.xs + 1,
  BREAKPOINTS.sm,
  BREAKPOINTS.sm + 1,
  MAX_WIDTH,
];

/** A phone: xs and below. */
export const SMALL_SCREEN_QUERY = `(max-width: ${BREAKPOINTS.xs}px)`;
/** Narrower than the page's max width: the top bar has no room for its search box. */
export const BELOW_MAX_WIDTH_QUERY = `(max-width: ${MAX_WIDTH}px)`;
