/**
 * One live subscription per customer per plan family, held by the data (subscription-slot.ts):
 * the place is claimed in the invoice's claim transaction (invoices.ts), before the gateway is
 * called; filled by the subscription the payment started; freed when the payment ends without
 * one; and kept in step with the subscription's state, so it frees itself when the subscription
 * stops giving what it sells.
 */
import { PAST_DUE_GRACE_DAYS } from '../../../shared/payments/grace';
import type { SubscriptionItem } from '../db/entities/subscription';
import type { SubscriptionSlotItem } from '../db/entities/subscription-slot';
import { getBatch } from '../db/batches';
import { isConditionalCheckFailed } from '../db/errors';
import type { Db } from '../db/service';
import { logger } from '../logger';
import { entitlementEndsAt } from './entitlement';
import { PLATFORM_SELLER_ID } from './pro-plan-access';

/** Past any date a subscription is paid to: the place of a subscription that renews. */
export const LIVE_WHILE_RENEWING = '9999-12-31T23:59:59.999Z';
/** How long a payment whose outcome is unknown keeps its places: time enough to pay it again and find out. */
export const IN_DOUBT_HOLD_MS = 24 * 3_600_000;

/**
 * The plan family a subscription belongs to: the platform sells one Pro plan at several prices
 * (a monthly and a yearly Pro are one family); a shop's family is the grade itself.
 */
export function planFamilyOf(line: { sellerId: string; productId: string; priceId: string }): string {
  return line.sellerId === PLATFORM_SELLER_ID ? line.productId : line.priceId;
}

/** Until when a subscription holds its place: while it renews, for good; after that, as long as it gives what it sells. */
export function liveUntilOf(
  subscription: Pick<SubscriptionItem, 'status' | 'pastDueSince' | 'paidThroughDate'>,
  now: Date,
): string {
  if (subscription.status === 'Active' || subscription.status === 'Pending') return LIVE_WHILE_RENEWING;
  const ends = entitlementEndsAt(subscription, PAST_DUE_GRACE_DAYS);
  return (ends && ends.getTime() > now.getTime() ? ends : now).toISOString();
}

const slotKey = (customerId: string, sellerId: string, family: string) => ({ customerId, sellerId, family });

/** The places of these families as they are now (consistent reads). */
export async function readSlots(
  db: Db,
  owner: { customerId: string; sellerId: string },
  families: readonly string[],
): Promise<Map<string, SubscriptionSlotItem>> {
  if (families.length === 0) return new Map();
  const found = await getBatch({
    keys: families.map((family) => slotKey(owner.customerId, owner.sellerId, family)),
    send: async (keys) => {
      const { data, unprocessed } = await db.entities.subscriptionSlot.get(keys).go({ consistent: true });
      return { data, unprocessed: unprocessed.map((key) => slotKey(key.customerId, key.sellerId, key.family)) };
    },
    what: 'subscription places',
  });
  return new Map(found.map((slot) => [slot.family, slot]));
}

/** Whether the place is this invoice's already, filled by the subscription it started. */
export const isFilledBy = (slot: SubscriptionSlotItem | undefined, invoiceId: string) =>
  slot !== undefined && slot.invoiceId === invoiceId && slot.subscriptionId !== undefined;

/**
 * The subscription a payment started takes its place. Not part of the transaction that records
 * the payment: a place lost meanwhile (the claim lapsed and another invoice took it) must not
 * stop a charge from being recorded; it is logged, and reconciliation shows both subscriptions.
 */
export async function fillSlot(db: Db, subscription: SubscriptionItem, now: Date): Promise<void> {
  const family = planFamilyOf(subscription);
  try {
    await db.entities.subscriptionSlot
      .patch(slotKey(subscription.customerId, subscription.sellerId, family))
      .set({
        subscriptionId: subscription.subscriptionId,
        liveUntil: liveUntilOf(subscription, now),
        updatedAt: now.toISOString(),
      })
      .where((attributes, { eq }) => eq(attributes.invoiceId, subscription.invoiceId))
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    logger.error('A subscription was started without holding its plan family', {
      subscriptionId: subscription.subscriptionId,
      sellerId: subscription.sellerId,
      family,
    });
  }
}

/** The place follows the subscription's new state (a subscription older than places has none: nothing to follow). */
export async function followSlot(db: Db, subscription: SubscriptionItem, now: Date): Promise<void> {
  try {
    await db.entities.subscriptionSlot
      .patch(slotKey(subscription.customerId, subscription.sellerId, planFamilyOf(subscription)))
      .set({ liveUntil: liveUntilOf(subscription, now), updatedAt: now.toISOString() })
      .where((attributes, { eq }) => eq(attributes.subscriptionId, subscription.subscriptionId))
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/**
 * The payment ended with no subscription in these families: their places are free at once, or
 * (`until`, when its outcome is unknown) held a while longer by the same invoice.
 */
export async function releaseSlots(
  db: Db,
  invoice: { invoiceId: string; customerId: string; sellerId: string },
  families: readonly string[],
  now: Date,
  until?: Date,
): Promise<void> {
  await Promise.all(
    families.map(async (family) => {
      const key = slotKey(invoice.customerId, invoice.sellerId, family);
      try {
        if (until) {
          await db.entities.subscriptionSlot
            .patch(key)
            .set({ liveUntil: until.toISOString(), updatedAt: now.toISOString() })
            .where(
              (attributes, { eq, notExists }) =>
                `${eq(attributes.invoiceId, invoice.invoiceId)} AND ${notExists(attributes.subscriptionId)}`,
            )
            .go();
        } else {
          await db.entities.subscriptionSlot
            .delete(key)
            .where(
              (attributes, { eq, notExists }) =>
                `${eq(attributes.invoiceId, invoice.invoiceId)} AND ${notExists(attributes.subscriptionId)}`,
            )
            .go();
        }
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
    }),
  );
}
