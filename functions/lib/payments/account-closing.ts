/**
 * A customer who deletes their account is never charged again: every subscription of theirs
 * that still bills is canceled at its seller's gateway first (the platform's for the Pro plan, a
 * shop's own for the storefront, opened with the shop's sealed keys), before anything of the
 * account is deleted, so a gateway that cannot be reached stops the deletion (503) instead of
 * leaving a charge running for nobody.
 */
import { shopScope } from '../db/entities/store-figures';
import type { SubscriptionItem } from '../db/entities/subscription';
import type { Db } from '../db/service';
import type { PaymentGateway } from './gateway';
import { merchantPaymentGateway } from './merchant-gateway';
import { PLATFORM_SELLER_ID } from './pro-plan-access';
import { syncSubscription } from './subscription-sync';

const STILL_BILLING = new Set(['Pending', 'Active', 'Past Due']);

export async function cancelSubscriptionsOf(
  db: Db,
  platformGateway: () => Promise<PaymentGateway>,
  customerId: string,
  now: Date,
): Promise<SubscriptionItem[]> {
  const { data: subscriptions } = await db.entities.subscription.query.byCustomer({ customerId }).go({ pages: 'all' });
  const billing = subscriptions.filter((subscription) => STILL_BILLING.has(subscription.status));
  for (const subscription of billing) {
    const gateway =
      subscription.sellerId === PLATFORM_SELLER_ID ? await platformGateway() : await shopGatewayOf(db, subscription);
    const canceled = await gateway.cancelSubscription(subscription.subscriptionId);
    // The sync that applies the change moves a shop's dashboard counts with it, once.
    await syncSubscription(db, canceled, { now });
  }
  return billing;
}

/**
 * The person's own shop, if any, with how many subscribers it still bills (active or past due,
 * the counts its dashboard shows). Deleting the account is refused while that is above zero:
 * nobody could manage the shop or those subscriptions afterwards. Otherwise the shop closes with
 * the account.
 */
export async function ownShopOf(
  db: Db,
  ownerId: string,
): Promise<{ merchantAccountId: string; shopName: string; billingSubscriptions: number } | null> {
  const { data: owner } = await db.entities.merchantOwner.get({ ownerId }).go({ consistent: true });
  if (!owner) return null;
  const merchantAccountId = owner.merchantAccountId;
  const [{ data: shop }, { data: total }] = await Promise.all([
    db.entities.merchantAccount.get({ merchantAccountId }).go({ consistent: true }),
    db.entities.storeFigure.get({ merchantAccountId, scope: shopScope, period: 'total' }).go({ consistent: true }),
  ]);
  if (!shop) return null;
  return {
    merchantAccountId,
    shopName: shop.shopName,
    billingSubscriptions: (total?.activeSubscriptions ?? 0) + (total?.pastDueSubscriptions ?? 0),
  };
}

async function shopGatewayOf(db: Db, subscription: SubscriptionItem): Promise<PaymentGateway> {
  const { data: keys } = await db.entities.merchantGatewayKeys
    .get({ merchantAccountId: subscription.sellerId })
    .go({ consistent: true });
  if (!keys) throw new Error(`Subscription ${subscription.subscriptionId} is sold by a shop whose payment account is gone`);
  return merchantPaymentGateway(subscription.sellerId, keys.sealed);
}
