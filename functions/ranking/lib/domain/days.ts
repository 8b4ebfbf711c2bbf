/** Calendar days as 'YYYY-MM-DD' strings in UTC: the unit of follower history. */
export type Day = string;

const MS_PER_DAY = 86_400_000;

export function toDay(date: Date | string | number): Day {
  return new Date(date).toISOString().slice(0, 10);
}

export function addDays(day: Day, days: number): Day {
  return toDay(Date.parse(`${day}T00:00:00Z`) + days * MS_PER_DAY);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: Day, to: Day): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / MS_PER_DAY);
}

/** 'MM-DD' key of a day inside its year's history item. */
export function monthDay(day: Day): string {
  return day.slice(5);
}

export function yearOf(day: Day): string {
  return day.slice(0, 4);
}
