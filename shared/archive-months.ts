/**
 * Months of the rankings archive as 'YYYY-MM' (UTC), for the API and the web app alike: the
 * page's previous and next links and its title are worked out the same way on both sides.
 */

function parts(month: string): [number, number] {
  return [Number(month.slice(0, 4)), Number(month.slice(5, 7))];
}

function format(year: number, monthNumber: number): string {
  return `${String(year).padStart(4, '0')}-${String(monthNumber).padStart(2, '0')}`;
}

/** The month of an instant, in UTC. */
export function monthOfDate(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** 'YYYY-MM' of the month `offset` months after `month` (before it when negative). */
export function addMonths(month: string, offset: number): string {
  const [year, monthNumber] = parts(month);
  const index = year * 12 + (monthNumber - 1) + offset;
  return format(Math.floor(index / 12), (index % 12) + 1);
}

/** The last day of `month`, 'YYYY-MM-DD'. */
export function lastDayOfMonth(month: string): string {
  const [year, monthNumber] = parts(month);
  return `${month}-${String(new Date(Date.UTC(year, monthNumber, 0)).getUTCDate()).padStart(2, '0')}`;
}

/** "May 2025": a month as people read it. */
export function monthName(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The page of a month's archive, overall or of one topic. */
export function archivePath(month: string, topic?: string | null): string {
  const path = `/archive/${month.slice(0, 4)}/${month.slice(5, 7)}`;
  return topic ? `${path}?topic=${encodeURIComponent(topic)}` : path;
}
