import { RECENT_HISTORY_DAYS } from '../../../../shared/constants';
import { addDays, type Day, daysBetween } from './days';

/** Marks a day inside the window on which no count was observed. */
export const NOT_OBSERVED = -1;

/** A publication's rolling window of daily follower counts, ending at `endDay`. */
export interface RecentCounts {
  endDay: Day;
  counts: number[];
}

/**
 * Records `followers` on `day`, keeping at most RECENT_HISTORY_DAYS days. Idempotent: the same
 * (day, count) twice gives the same window. A day older than the window changes nothing here.
 */
export function recordCount(window: RecentCounts | undefined, day: Day, followers: number): RecentCounts {
  if (!window || window.counts.length === 0) return { endDay: day, counts: [followers] };
  const offset = daysBetween(window.endDay, day);
  if (offset > 0) {
    const counts = [...window.counts, ...Array<number>(offset - 1).fill(NOT_OBSERVED), followers];
    return { endDay: day, counts: counts.slice(-RECENT_HISTORY_DAYS) };
  }
  const index = window.counts.length - 1 + offset;
  if (index < 0) return window;
  const counts = [...window.counts];
  counts[index] = followers;
  return { endDay: window.endDay, counts };
}

/**
 * Moves the window on to `day` without a count: what a snapshot of a source that counts no
 * followers (a plain feed) records. Earlier days are left as they are.
 */
export function recordNoCount(window: RecentCounts | undefined, day: Day): RecentCounts {
  if (!window) return { endDay: day, counts: [] };
  const offset = daysBetween(window.endDay, day);
  if (offset <= 0) return window;
  if (window.counts.length === 0) return { endDay: day, counts: [] };
  const counts = [...window.counts, ...Array<number>(offset).fill(NOT_OBSERVED)];
  return { endDay: day, counts: counts.slice(-RECENT_HISTORY_DAYS) };
}

/** The latest observed count on or before `day`, or undefined when none is in the window. */
export function countOnOrBefore(window: RecentCounts, day: Day): number | undefined {
  const lastIndex = window.counts.length - 1;
  const start = Math.min(lastIndex, lastIndex + daysBetween(window.endDay, day));
  for (let index = start; index >= 0; index -= 1) {
    const count = window.counts[index] as number;
    if (count !== NOT_OBSERVED) return count;
  }
  return undefined;
}

/** The earliest observed count in the window. */
export function firstObserved(window: RecentCounts): { day: Day; count: number } | undefined {
  const index = window.counts.findIndex((count) => count !== NOT_OBSERVED);
  if (index < 0) return undefined;
  return { day: addDays(window.endDay, index - (window.counts.length - 1)), count: window.counts[index] as number };
}
