import { formatMoney, type Money } from '@shared/payments/money';
import type { StoreSubscriptionView } from '../api/store-keys';

export { formatMoney };
export { formatDate, formatDay } from '../../../lib/format-date';

/** A billing cycle after a price: "/month", "/3 months", "/year", "/2 years". */
export function perCycle(billingFrequencyMonths: number): string {
  if (billingFrequencyMonths === 1) return '/month';
  if (billingFrequencyMonths === 12) return '/year';
  if (billingFrequencyMonths % 12 === 0) return `/${billingFrequencyMonths / 12} years`;
  return `/${billingFrequencyMonths} months`;
}

/** A billing cycle in a sentence: "every month", "every 3 months", "every year". */
export function everyCycle(billingFrequencyMonths: number): string {
  if (billingFrequencyMonths === 1) return 'every month';
  if (billingFrequencyMonths === 12) return 'every year';
  if (billingFrequencyMonths % 12 === 0) return `every ${billingFrequencyMonths / 12} years`;
  return `every ${billingFrequencyMonths} months`;
}

/** A price times a quantity, in the same currency. */
export function times(price: Money, quantity: number): Money {
  return { amountMinor: price.amountMinor * quantity, currency: price.currency };
}

const DAY_MS = 86_400_000;

/**
 * Roughly what adding `extra` of an add-on costs today: Braintree charges the rest of the current
 * cycle, prorated by the days left until the next billing day. An estimate (the gateway's own
 * day count decides), so the page says "about"; null when the next billing day is unknown or past.
 */
export function proratedEstimate(
  subscription: Pick<StoreSubscriptionView, 'nextBillingDate' | 'billingFrequencyMonths'>,
  cyclePrice: Money,
  now = new Date(),
): { amount: Money; daysLeft: number } | null {
  if (!subscription.nextBillingDate) return null;
  const next = Date.parse(`${subscription.nextBillingDate}T00:00:00.000Z`);
  if (Number.isNaN(next)) return null;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  // As Braintree prorates: the days after today to the end of the period paid for (the day before the next charge).
  const daysLeft = Math.round((next - today) / DAY_MS) - 1;
  if (daysLeft <= 0) return null;
  const cycleDays = Math.max(daysLeft, Math.round((subscription.billingFrequencyMonths * 365.25) / 12));
  return {
    amount: { amountMinor: Math.round((cyclePrice.amountMinor * daysLeft) / cycleDays), currency: cyclePrice.currency },
    daysLeft,
  };
}
