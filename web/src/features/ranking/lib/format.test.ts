import { describe, expect, it } from 'vitest';
import {
  formatCompact,
  formatDate,
  formatExact,
  formatPercent,
  formatRelative,
  formatSignedCompact,
  initials,
} from './format';
import { boardPath } from './paths';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW - days * 86_400_000).toISOString();

describe('formatCompact', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1_500, '1.5K'],
    [45_321, '45.3K'],
    [267_933, '267.9K'],
    [1_234_567, '1.2M'],
    [2_000_000_000, '2B'],
  ])('formats %d as %s', (value, expected) => {
    // Act / Assess
    expect(formatCompact(value)).toBe(expected);
  });

  it('signs gains and keeps losses negative', () => {
    // Act / Assess
    expect(formatSignedCompact(18_771)).toBe('+18.8K');
    expect(formatSignedCompact(-1_064)).toBe('-1.1K');
    expect(formatSignedCompact(0)).toBe('0');
  });

  it('gives the exact number with separators for titles and labels', () => {
    // Act / Assess
    expect(formatExact(267_933)).toBe('267,933');
  });
});

describe('formatPercent', () => {
  it('uses fewer decimals as the number grows', () => {
    // Act / Assess
    expect(formatPercent(0.14)).toBe('+0.14%');
    expect(formatPercent(-0.41)).toBe('-0.41%');
    expect(formatPercent(3.25)).toBe('+3.3%');
    expect(formatPercent(290.35)).toBe('+290%');
    expect(formatPercent(0)).toBe('0%');
  });
});

describe('formatRelative', () => {
  it.each([
    [0.2, 'today'],
    [1, 'yesterday'],
    [3, '3 days ago'],
    [65, '2 months ago'],
    [800, '2 years ago'],
  ])('says %d days ago as %s', (days, expected) => {
    // Act / Assess
    expect(formatRelative(daysAgo(days), NOW, 'UTC')).toBe(expected);
  });

  it.each([
    // 6 December, 09:00 in Lisbon; the post went out at 20:00 the evening before.
    ['Europe/Lisbon', '2026-12-06T09:00:00.000Z', '2026-12-05T20:00:00.000Z', 'yesterday', '5 December 2026'],
    // The same instants in Tokyo (UTC+9): 18:00 on 6 December, posted at 05:00 that morning.
    ['Asia/Tokyo', '2026-12-06T09:00:00.000Z', '2026-12-05T20:00:00.000Z', 'today', '6 December 2026'],
    // 6 December, 00:30 in New York; posted 23:50 on 4 December there, under 25 hours before.
    ['America/New_York', '2026-12-06T05:30:00.000Z', '2026-12-05T04:50:00.000Z', '2 days ago', '4 December 2026'],
  ])('counts calendar days in the viewer time zone (%s), agreeing with the date shown', (zone, now, post, when, date) => {
    // Act
    const relative = formatRelative(post, Date.parse(now), zone);
    const shown = formatDate(post, zone);

    // Assess
    expect(`${relative} (${shown})`).toBe(`${when} (${date})`);
  });
});

describe('initials', () => {
  it('takes two initials and skips a leading article', () => {
    // Act / Assess
    expect(initials('The Business Daily')).toBe('BD');
    expect(initials("Lena's Press")).toBe('LP');
    expect(initials('glass')).toBe('G');
    expect(initials('!!!')).toBe('?');
  });
});

describe('boardPath', () => {
  it('maps every board to its page route', () => {
    // Act / Assess
    expect(boardPath({ kind: 'followers', activeOnly: false, topic: null })).toBe('/');
    expect(boardPath({ kind: 'followers', activeOnly: true, topic: null })).toBe('/active');
    expect(boardPath({ kind: 'growth', activeOnly: false, topic: null })).toBe('/growing');
    expect(boardPath({ kind: 'growth', activeOnly: true, topic: null })).toBe('/growing/active');
    expect(boardPath({ kind: 'followers', activeOnly: false, topic: 'data-science' })).toBe('/topic/data-science');
    expect(boardPath({ kind: 'growth', activeOnly: true, topic: 'data-science' })).toBe(
      '/topic/data-science/growing?active=true',
    );
  });
});
