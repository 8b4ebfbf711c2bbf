import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BREAKPOINTS, MAX_WIDTH, MEDIA_QUERY_WIDTHS } from '../../web/src/lib/breakpoints';

const WEB_SRC = join(process.cwd(), 'web/src');

function cssFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

/** Every width an `@media` query of the CSS names, with where: `file:line (min-width: 600px)`. */
function mediaQueryWidths(css: string): { line: number; feature: string; width: number }[] {
  const found: { line: number; feature: string; width: number }[] = [];
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '));
  for (const media of withoutComments.matchAll(/@media[^{]*\{/g)) {
    const line = withoutComments.slice(0, media.index).split('\n').length;
    for (const width of media[0].matchAll(/((?:min-|max-)?width)\s*:\s*([\d.]+)(px|em|rem)?/g)) {
      const value = Number(width[2]) * (width[3] === 'em' || width[3] === 'rem' ? 16 : 1);
      found.push({ line, feature: width[0], width: value });
    }
    for (const range of media[0].matchAll(/([\d.]+)px\s*<=?\s*width|width\s*<=?\s*([\d.]+)px/g)) {
      found.push({ line, feature: range[0], width: Number(range[1] ?? range[2]) });
    }
  }
  return found;
}

describe('layout breakpoints', () => {
  it("are the spec's: sm 991/992, xs 767/768, xxs 480, xxxs 320; max width 1200", () => {
    // Assess
    expect(BREAKPOINTS).toEqual({ sm: 991, xs: 767, xxs: 480, xxxs: 320 });
    expect(MAX_WIDTH).toBe(1200);
    expect([...MEDIA_QUERY_WIDTHS].sort((a, b) => a - b)).toEqual([320, 480, 767, 768, 991, 992, 1200]);
  });

  it('are the only widths the CSS media queries use', () => {
    // Prepare
    const files = cssFiles(WEB_SRC);

    // Act
    const offending = files.flatMap((file) =>
      mediaQueryWidths(readFileSync(file, 'utf8'))
        .filter(({ width }) => !MEDIA_QUERY_WIDTHS.includes(width))
        .map(({ line, feature }) => `${relative(WEB_SRC, file)}:${line} (${feature})`),
    );

    // Assess
    expect(files.length).toBeGreaterThan(10);
    expect(offending).toEqual([]);
  });

  it('finds an ad-hoc width, so the check above cannot pass by reading nothing', () => {
    // Act
    const widths = mediaQueryWidths('/* @media (max-width: 1px) */\n@media (min-width: 600px) and (max-width: 991px) { a { b: c } }');

    // Assess
    expect(widths.map(({ width }) => width)).toEqual([600, 991]);
  });

  it('lists the max width that global.css gives the page', () => {
    // Act
    const css = readFileSync(join(WEB_SRC, 'styles/global.css'), 'utf8');

    // Assess
    expect(css).toContain(`--max-width: ${MAX_WIDTH}px;`);
  });
});
