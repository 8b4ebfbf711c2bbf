import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it('uses the decimal units plans are stated in', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(2_400)).toBe('2.4 kB');
    expect(formatBytes(1_500_000)).toBe('1.5 MB');
    expect(formatBytes(2_000_000_000)).toBe('2 GB');
    expect(formatBytes(2_500_000_000)).toBe('2.5 GB');
    expect(formatBytes(200_000_000_000)).toBe('200 GB');
  });
});
