/**
 * Calendar days as the gateway counts them: "YYYY-MM-DD" in its time zone, which locally is UTC
 * (a Braintree merchant picks one; UTC keeps every machine's answers the same).
 */

const DAY_MS = 24 * 60 * 60 * 1_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export function dayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

function partsOf(day: string): { year: number; month: number; date: number } {
  const match = DAY_PATTERN.exec(day);
  if (!match) throw new Error(`'${day}' is not a YYYY-MM-DD day`);
  return { year: Number(match[1]), month: Number(match[2]) - 1, date: Number(match[3]) };
}

const format = (year: number, month: number, date: number) => dayOf(new Date(Date.UTC(year, month, date)));

export const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** The start of a day, as an instant. */
export function startOf(day: string): Date {
  const { year, month, date } = partsOf(day);
  return new Date(Date.UTC(year, month, date));
}

export function addDays(day: string, days: number): string {
  return dayOf(new Date(startOf(day).getTime() + days * DAY_MS));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((startOf(to).getTime() - startOf(from).getTime()) / DAY_MS);
}

/**
 * The billing date `months` after `day`, on the subscription's billing day of month: a month
 * without that day bills on its last day (a subscription begun on the 31st bills on 28 or
 * 29 February, then on 31 March again).
 */
export function addBillingMonths(day: string, months: number, billingDayOfMonth: number): string {
  const { year, month } = partsOf(day);
  const target = new Date(Date.UTC(year, month + months, 1));
  const targetYear = target.getUTCFullYear();
  const targetMonth = target.getUTCMonth();
  return format(targetYear, targetMonth, Math.min(billingDayOfMonth, daysInMonth(targetYear, targetMonth)));
}

export const dayOfMonth = (day: string) => partsOf(day).date;

/** The year and month (1-12) of a day: a card is good through the last day of its expiry month. */
export function monthOf(day: string): { year: number; month: number } {
  const { year, month } = partsOf(day);
  return { year, month: month + 1 };
}
