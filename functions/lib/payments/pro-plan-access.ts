/**
 * Who is on the file-transfer app's Pro plan: whoever's newest Pro subscription gives it now
 * (active; past due within its grace period; canceled with paid time left). Read by the transfer
 * routes' plan check, so a subscription changes the limits the moment it is stored, and they
 * fall back the moment its time runs out.
 */
import { PAST_DUE_GRACE_DAYS } from '../../../shared/payments/grace';
import { PRO_PRODUCT_ID } from '../../../shared/transfers/pro-plan';
import type { SubscriptionItem } from '../db/entities/subscription';
import type { Db } from '../db/service';
import { givesEntitlement } from './entitlement';

/** The product's own plans are sold by the platform itself, not by a storefront merchant. */
export const PLATFORM_SELLER_ID = 'platform';

/** The customer's newest Pro subscription, whatever its status; null for one who never subscribed. */
export async function readProSubscription(db: Db, customerId: string): Promise<SubscriptionItem | null> {
  const { data } = await db.entities.subscription.query
    .byCustomer({ customerId, sellerId: PLATFORM_SELLER_ID, productId: PRO_PRODUCT_ID })
    .go({ order: 'desc', limit: 1 });
  return data[0] ?? null;
}

export const givesPro = (subscription: SubscriptionItem | null, now: Date): boolean =>
  subscription !== null && givesEntitlement(subscription, now, PAST_DUE_GRACE_DAYS);

export async function hasPro(db: Db, customerId: string, now: Date = new Date()): Promise<boolean> {
  return givesPro(await readProSubscription(db, customerId), now);
}
