import { describe, expect, it } from 'vitest';
import { RECENT_HISTORY_DAYS } from '../../shared/constants';
import { addDays } from '../../functions/ranking/lib/domain/days';
import {
  countOnOrBefore,
  firstObserved,
  NOT_OBSERVED,
  recordCount,
  recordNoCount,
  type RecentCounts,
} from '../../functions/ranking/lib/domain/recent-counts';

describe('recordCount', () => {
  it('starts a window from nothing', () => {
    // Act
    const window = recordCount(undefined, '2024-03-10', 100);

    // Assess
    expect(window).toEqual({ endDay: '2024-03-10', counts: [100] });
  });

  it('appends the next day to the end of the window', () => {
    // Prepare
    const window: RecentCounts = { endDay: '2024-03-10', counts: [100, 110] };

    // Act
    const next = recordCount(window, '2024-03-11', 120);

    // Assess
    expect(next).toEqual({ endDay: '2024-03-11', counts: [100, 110, 120] });
  });

  it('fills days without an observation with -1', () => {
    // Prepare
    const window: RecentCounts = { endDay: '2024-03-10', counts: [100] };

    // Act
    const next = recordCount(window, '2024-03-13', 130);

    // Assess
    expect(next).toEqual({ endDay: '2024-03-13', counts: [100, NOT_OBSERVED, NOT_OBSERVED, 130] });
    expect(NOT_OBSERVED).toBe(-1);
  });

  it('gives the same window when the same (day, count) is recorded twice', () => {
    // Prepare
    const once = recordCount({ endDay: '2024-03-10', counts: [100] }, '2024-03-11', 120);

    // Act
    const twice = recordCount(once, '2024-03-11', 120);

    // Assess
    expect(twice).toEqual(once);
    expect(twice).toEqual({ endDay: '2024-03-11', counts: [100, 120] });
  });

  it('overwrites a day inside the window without moving its end', () => {
    // Prepare
    const window: RecentCounts = { endDay: '2024-03-12', counts: [100, NOT_OBSERVED, 120] };

    // Act
    const next = recordCount(window, '2024-03-11', 111);

    // Assess
    expect(next).toEqual({ endDay: '2024-03-12', counts: [100, 111, 120] });
    // The input is not mutated.
    expect(window.counts).toEqual([100, NOT_OBSERVED, 120]);
  });

  it('ignores a day older than the window', () => {
    // Prepare
    const window: RecentCounts = { endDay: '2024-03-12', counts: [100, 110, 120] };

    // Act
    const next = recordCount(window, '2024-03-09', 50);

    // Assess
    expect(next).toEqual({ endDay: '2024-03-12', counts: [100, 110, 120] });
  });

  it(`keeps at most ${RECENT_HISTORY_DAYS} days, dropping the oldest`, () => {
    // Prepare
    let window: RecentCounts | undefined;
    const start = '2024-01-01';

    // Act
    for (let day = 0; day < RECENT_HISTORY_DAYS + 5; day += 1) window = recordCount(window, addDays(start, day), day);

    // Assess
    expect(window?.counts).toHaveLength(RECENT_HISTORY_DAYS);
    expect(window?.counts[0]).toBe(5);
    expect(window?.counts.at(-1)).toBe(RECENT_HISTORY_DAYS + 4);
    expect(window?.endDay).toBe(addDays(start, RECENT_HISTORY_DAYS + 4));
  });

  it('caps the window after a long gap too', () => {
    // Prepare
    const window: RecentCounts = { endDay: '2024-01-01', counts: [100] };

    // Act
    const next = recordCount(window, addDays('2024-01-01', 100), 500);

    // Assess: the old count fell out of the window entirely.
    expect(next.counts).toHaveLength(RECENT_HISTORY_DAYS);
    expect(next.counts.filter((count) => count !== NOT_OBSERVED)).toEqual([500]);
  });
});

describe('recordNoCount', () => {
  it('moves the window on to a later day with the days between not observed, and leaves earlier days alone', () => {
    // Prepare
    const window: RecentCounts = { endDay: '2024-03-10', counts: [100] };

    // Act
    const later = recordNoCount(window, '2024-03-12');
    const earlier = recordNoCount(window, '2024-03-09');

    // Assess
    expect(later).toEqual({ endDay: '2024-03-12', counts: [100, NOT_OBSERVED, NOT_OBSERVED] });
    expect(earlier).toBe(window);
  });

  it('keeps a window that never had a count empty, ending on the newest day', () => {
    // Act
    const first = recordNoCount(undefined, '2024-03-10');
    const next = recordNoCount(first, '2024-03-11');

    // Assess
    expect(first).toEqual({ endDay: '2024-03-10', counts: [] });
    expect(next).toEqual({ endDay: '2024-03-11', counts: [] });
    expect(recordCount(next, '2024-03-12', 5)).toEqual({ endDay: '2024-03-12', counts: [5] });
  });
});

describe('countOnOrBefore', () => {
  const window: RecentCounts = { endDay: '2024-03-15', counts: [100, NOT_OBSERVED, NOT_OBSERVED, 130, NOT_OBSERVED, 150] };

  it('returns the count of the day itself', () => {
    expect(countOnOrBefore(window, '2024-03-13')).toBe(130);
    expect(countOnOrBefore(window, '2024-03-15')).toBe(150);
  });

  it('skips -1 gaps back to the latest observed count', () => {
    expect(countOnOrBefore(window, '2024-03-12')).toBe(100);
    expect(countOnOrBefore(window, '2024-03-14')).toBe(130);
  });

  it('uses the last count for a day after the window', () => {
    expect(countOnOrBefore(window, '2024-04-01')).toBe(150);
  });

  it('returns undefined for a day before the window', () => {
    expect(countOnOrBefore(window, '2024-03-09')).toBeUndefined();
  });
});

describe('firstObserved', () => {
  it('gives the day and count of the earliest observation, skipping leading gaps', () => {
    // Prepare
    const window: RecentCounts = { endDay: '2024-03-15', counts: [NOT_OBSERVED, NOT_OBSERVED, 120, NOT_OBSERVED, 140] };

    // Act
    const first = firstObserved(window);

    // Assess
    expect(first).toEqual({ day: '2024-03-13', count: 120 });
  });

  it('is undefined when nothing was observed', () => {
    expect(firstObserved({ endDay: '2024-03-15', counts: [NOT_OBSERVED, NOT_OBSERVED] })).toBeUndefined();
  });
});
