import { formatMoney } from '@shared/payments/money';
import type { Money, PriceView } from '../api/subscription-keys';

export { formatMoney };

const LONG_DATE: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric' };

/** An instant as a date in the reader's time zone: "3 March 2026". */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString('en-GB', LONG_DATE);
}

/**
 * A billing day (YYYY-MM-DD, the gateway's calendar day) as it is written, whatever the reader's
 * time zone: read as an instant, it would show the day before west of UTC.
 */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) ? day : date.toLocaleDateString('en-GB', { ...LONG_DATE, timeZone: 'UTC' });
}

/** "a month", "a year". */
export function perInterval(interval: PriceView['interval']): string {
  return interval === 'month' ? 'a month' : 'a year';
}

/** "every month", "every year". */
export function everyInterval(interval: PriceView['interval']): string {
  return interval === 'month' ? 'every month' : 'every year';
}

/** "Monthly", "Yearly". */
export function intervalName(interval: PriceView['interval']): string {
  return interval === 'month' ? 'Monthly' : 'Yearly';
}

/** What paying yearly saves over twelve monthly payments, when it saves anything. */
export function yearlySaving(
  monthly: PriceView | undefined,
  yearly: PriceView | undefined,
): { saved: Money; percent: number } | null {
  if (!monthly || !yearly || monthly.price.currency !== yearly.price.currency) return null;
  const twelveMonths = monthly.price.amountMinor * yearly.billingFrequencyMonths;
  const saved = twelveMonths - yearly.price.amountMinor;
  if (saved <= 0) return null;
  return { saved: { amountMinor: saved, currency: yearly.price.currency }, percent: Math.round((saved / twelveMonths) * 100) };
}
