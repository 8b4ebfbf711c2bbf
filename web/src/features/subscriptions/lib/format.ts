import { formatMoney } from '@shared/payments/money';
import type { Money, PriceView } from '../api/subscription-keys';

export { formatMoney };
export { formatDate, formatDay } from '../../../lib/format-date';

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
