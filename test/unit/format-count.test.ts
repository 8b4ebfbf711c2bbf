import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount } from '../../shared/format-count';

describe('formatCount', () => {
  it('groups thousands as en-US does', () => {
    // Prepare
    const counts = [0, 7, 999, 1000, 12_345, 298_900, 1_000_000, -1200];

    // Act
    const written = counts.map(formatCount);

    // Assess
    expect(written).toEqual(['0', '7', '999', '1,000', '12,345', '298,900', '1,000,000', '-1,200']);
  });

  it('writes every number as Intl.NumberFormat("en-US") does', () => {
    // Prepare
    const intl = new Intl.NumberFormat('en-US');
    const numbers = fc.oneof(
      fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
      fc.double({ noNaN: false }),
      fc.constantFrom(-0, 2 ** 60, Number.POSITIVE_INFINITY),
    );

    // Act / Assess
    fc.assert(fc.property(numbers, (value) => formatCount(value) === intl.format(value)));
  });
});
