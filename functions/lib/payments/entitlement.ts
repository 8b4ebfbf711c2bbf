/**
 * Whether a subscription gives what it sells right now, from its stored state and the clock:
 * no job has to flip anything when a grace period or a paid period runs out.
 * - Active: yes.
 * - Past Due: for `graceDays` from when it went past due, while the subscriber updates the card.
 * - Canceled: to the end of the last day paid for.
 * - Pending (a resumed subscription, billing first on the day after the paid time it carries
 *   over from the canceled one): to the end of that paid time; its first charge makes it Active.
 * - Pending with no paid time, Expired: no.
 */
import type { SubscriptionItem } from '../db/entities/subscription';

const DAY_MS = 86_400_000;

type EntitlementFields = Pick<SubscriptionItem, 'status' | 'pastDueSince' | 'paidThroughDate'>;

/** The end of a YYYY-MM-DD day paid for, as the instant after it (UTC, as dates are stored). */
export function endOfPaidDay(date: string): Date {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + DAY_MS);
}

export function graceEndsAt(subscription: EntitlementFields, graceDays: number): Date | null {
  if (subscription.status !== 'Past Due' || !subscription.pastDueSince) return null;
  return new Date(Date.parse(subscription.pastDueSince) + graceDays * DAY_MS);
}

/** When the entitlement ends if nothing changes; null while it renews (Active) or never applied. */
export function entitlementEndsAt(subscription: EntitlementFields, graceDays: number): Date | null {
  switch (subscription.status) {
    case 'Past Due':
      return graceEndsAt(subscription, graceDays);
    case 'Canceled':
      return subscription.paidThroughDate ? endOfPaidDay(subscription.paidThroughDate) : null;
    default:
      return null;
  }
}

export function givesEntitlement(subscription: EntitlementFields, now: Date, graceDays: number): boolean {
  switch (subscription.status) {
    case 'Active':
      return true;
    case 'Past Due':
    case 'Canceled': {
      const ends = entitlementEndsAt(subscription, graceDays);
      return ends !== null && now.getTime() < ends.getTime();
    }
    case 'Pending':
      return subscription.paidThroughDate !== undefined && now.getTime() < endOfPaidDay(subscription.paidThroughDate).getTime();
    default:
      return false;
  }
}
