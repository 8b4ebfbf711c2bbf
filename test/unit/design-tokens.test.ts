import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const css = readFileSync(join(process.cwd(), 'web/src/styles/global.css'), 'utf8');

/** The colour tokens of one rule of global.css, by name without the leading dashes. */
function tokensOf(selector: string): Map<string, string> {
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`global.css has no rule for ${selector}`);
  const block = css.slice(start, css.indexOf('}', start));
  return new Map(
    [...block.matchAll(/--(color-[a-z-]+):\s*(#[0-9a-f]{6});/gi)].map((match) => [match[1] as string, match[2] as string]),
  );
}

/** Each theme's tokens: the dark theme overrides the light one's (anything it leaves out stays). */
const THEMES = {
  light: tokensOf(':root'),
  dark: new Map([...tokensOf(':root'), ...tokensOf(":root[data-theme='dark']")]),
};

/** WCAG 2.1 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [red, green, blue] = [1, 3, 5].map((start) => {
    const channel = Number.parseInt(hex.slice(start, start + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}

function contrast(foreground: string, background: string): number {
  const [lighter, darker] = [luminance(foreground), luminance(background)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

const TEXT_COLOURS = [
  'color-text',
  'color-text-muted',
  'color-brand',
  'color-brand-strong',
  'color-positive',
  'color-negative',
  'color-warning',
];
const BACKGROUNDS = [
  'color-bg',
  'color-surface',
  'color-surface-strong',
  'color-brand-soft',
  'color-warning-soft',
  'color-negative-soft',
];
const ON_BRAND_BACKGROUNDS = ['color-brand', 'color-brand-strong', 'color-negative'];

describe.each(Object.entries(THEMES))("the %s theme's design tokens meet WCAG 2.1 AA contrast", (_theme, tokens) => {
  const colour = (name: string) => {
    const value = tokens.get(name);
    if (!value) throw new Error(`global.css has no --${name}`);
    return value;
  };

  it.each(TEXT_COLOURS.flatMap((text) => BACKGROUNDS.map((background) => [text, background] as const)))(
    '--%s on --%s reaches 4.5:1',
    (text, background) => {
      expect(contrast(colour(text), colour(background))).toBeGreaterThanOrEqual(4.5);
    },
  );

  it.each(ON_BRAND_BACKGROUNDS)('--color-on-brand on --%s reaches 4.5:1', (background) => {
    expect(contrast(colour('color-on-brand'), colour(background))).toBeGreaterThanOrEqual(4.5);
  });

  it('--color-focus stands out 3:1 from every background, as a focus indicator must', () => {
    for (const background of BACKGROUNDS) expect(contrast(colour('color-focus'), colour(background))).toBeGreaterThanOrEqual(3);
  });

  it('measures contrast as WCAG does (black on white is 21:1, the old growth green 3.76:1)', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#369374', '#ffffff')).toBeCloseTo(3.76, 2);
  });
});
