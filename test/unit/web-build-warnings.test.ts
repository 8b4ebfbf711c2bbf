import { join } from 'node:path';
import { rollup, type RollupLog } from 'rollup';
import { describe, expect, it } from 'vitest';
import { isExpectedRollupWarning } from '../../web/vite.config';

const zodCore = join(process.cwd(), 'node_modules/zod/v4/core');

describe('the web build’s warning filter', () => {
  it('drops the INVALID_ANNOTATION warnings that zod’s prose comments raise, and those alone', async () => {
    const warnings: RollupLog[] = [];
    // The two zod modules whose comments mention `@__PURE__`, bundled as the web build does.
    const bundle = await rollup({
      input: [join(zodCore, 'util.js'), join(zodCore, 'regexes.js')],
      onwarn: (warning) => warnings.push(warning),
    });
    await bundle.close();
    const invalid = warnings.filter((warning) => warning.code === 'INVALID_ANNOTATION');
    // Still raised by this zod: if a release drops the comments, the filter can go too. (Its
    // circular imports warn here as well; Vite leaves those out of its output itself.)
    expect(invalid.map((warning) => warning.id?.slice(zodCore.length + 1)).sort()).toEqual(['regexes.js', 'util.js']);
    expect(invalid.filter((warning) => !isExpectedRollupWarning(warning))).toEqual([]);
  });

  it('keeps every other warning', () => {
    expect(isExpectedRollupWarning({ code: 'INVALID_ANNOTATION', id: '/repo/node_modules/other/index.js', message: '' })).toBe(
      false,
    );
    expect(isExpectedRollupWarning({ code: 'INVALID_ANNOTATION', id: '/repo/web/src/main.tsx', message: '' })).toBe(false);
    expect(
      isExpectedRollupWarning({ code: 'CIRCULAR_DEPENDENCY', id: '/repo/node_modules/zod/v4/core/util.js', message: '' }),
    ).toBe(false);
    expect(isExpectedRollupWarning({ code: 'INVALID_ANNOTATION', message: '' })).toBe(false);
  });
});
