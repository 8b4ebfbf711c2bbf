import { describe, expect, it } from 'vitest';
import { formatDate, formatDay } from './format-date';

describe('formatDate and formatDay', () => {
  it('writes a billing day as it is, whatever the time zone', () => {
    expect(formatDay('2026-03-03')).toBe('3 March 2026');
  });

  it('writes an instant as a long date', () => {
    expect(formatDate('2026-03-03T12:00:00.000Z')).toMatch(/^[2-4] March 2026$/);
  });

  it('leaves what it cannot read as it is', () => {
    expect(formatDate('soon')).toBe('soon');
    expect(formatDay('2026-13-45')).toBe('2026-13-45');
  });
});
