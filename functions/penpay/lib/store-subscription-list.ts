/**
 * A customer's list of their subscriptions at shops, as the store shows it: read from the table
 * alone. Apart from store-subscriptions.ts, which changes them at the shop's own gateway, so
 * that listing them loads neither the gateway nor the merchant keys.
 */
import type { StoreSubscriptionView } from '../../../shared/schemas/store';
import { getBatch } from '../../lib/db/batches';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { ProductStockItem } from '../../lib/db/entities/product-stock';
import type { ProductStockGradeItem } from '../../lib/db/entities/product-stock-grade';
import type { SubscriptionItem } from '../../lib/db/entities/subscription';
import type { Db } from '../../lib/db/service';
import { PLATFORM_SELLER_ID } from '../../lib/payments/pro-plan-access';

/** The caller's subscriptions at shops, newest first: a person has a handful, read in one go. */
export async function listStoreSubscriptionsOf(db: Db, customerId: string): Promise<SubscriptionItem[]> {
  const { data } = await db.entities.subscription.query.byCustomer({ customerId }).go({ pages: 'all' });
  return data
    .filter((subscription) => subscription.sellerId !== PLATFORM_SELLER_ID)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.subscriptionId.localeCompare(a.subscriptionId));
}

/** Items by id in one BatchGetItem per 100 (retried), each id once. */
async function readMany<Key extends Record<string, string>, Item>(
  keys: readonly Key[],
  read: (keys: Key[]) => Promise<{ data: Item[]; unprocessed: Key[] }>,
  what: string,
): Promise<Item[]> {
  const unique = [...new Map(keys.map((key) => [JSON.stringify(key), key])).values()];
  if (unique.length === 0) return [];
  return getBatch({ keys: unique, send: read, what });
}

/** The shops, products and grades of some subscriptions: three batched reads, whatever their number. */
export async function readSubscriptionNames(db: Db, subscriptions: readonly SubscriptionItem[]) {
  const [merchants, products, grades] = await Promise.all([
    readMany(
      subscriptions.map((subscription) => ({ merchantAccountId: subscription.sellerId })),
      async (keys) => {
        const { data, unprocessed } = await db.entities.merchantAccount.get(keys).go();
        return { data, unprocessed: unprocessed.map((key) => ({ merchantAccountId: key.merchantAccountId })) };
      },
      'shops',
    ),
    readMany(
      subscriptions.map((subscription) => ({ productStockId: subscription.productId })),
      async (keys) => {
        const { data, unprocessed } = await db.entities.productStock.get(keys).go();
        return { data, unprocessed: unprocessed.map((key) => ({ productStockId: key.productStockId })) };
      },
      'products',
    ),
    readMany(
      subscriptions.map((subscription) => ({ productStockGradeId: subscription.priceId })),
      async (keys) => {
        const { data, unprocessed } = await db.entities.productStockGrade.get(keys).go();
        return { data, unprocessed: unprocessed.map((key) => ({ productStockGradeId: key.productStockGradeId })) };
      },
      'grades',
    ),
  ]);
  return {
    merchants: new Map(merchants.map((merchant) => [merchant.merchantAccountId, merchant])),
    products: new Map(products.map((product) => [product.productStockId, product])),
    grades: new Map(grades.map((grade) => [grade.productStockGradeId, grade])),
  };
}

export function toStoreSubscriptionView(
  subscription: SubscriptionItem,
  names: {
    merchant: MerchantAccountItem | undefined;
    product: ProductStockItem | undefined;
    grade: ProductStockGradeItem | undefined;
  },
): StoreSubscriptionView {
  const { merchant, product, grade } = names;
  const money = (amountMinor: number) => ({ amountMinor, currency: subscription.currency });
  const addOns = subscription.addOns ?? [];
  // Adding is for an active subscription only: a past-due or ended one offers nothing to add.
  const available =
    subscription.status === 'Active'
      ? (grade?.plan?.addOns ?? []).filter(
          (offer) => (addOns.find((addOn) => addOn.addOnId === offer.addOnId)?.quantity ?? 0) < offer.maxQuantity,
        )
      : [];
  return {
    id: subscription.subscriptionId,
    shop: {
      id: subscription.sellerId,
      handle: merchant?.handle ?? '',
      shopName: merchant?.shopName ?? 'A closed shop',
    },
    productStockId: subscription.productId,
    productStockGradeId: subscription.priceId,
    productTitle: product?.title ?? 'A product no longer sold',
    gradeName: grade?.name ?? '',
    status: subscription.status,
    price: money(subscription.priceMinor),
    billingFrequencyMonths: subscription.billingFrequencyMonths,
    balance: money(subscription.balanceMinor),
    nextBillingDate: subscription.nextBillingDate ?? null,
    paidThroughDate: subscription.paidThroughDate ?? null,
    canceledAt: subscription.canceledAt ?? null,
    paymentMethod: {
      cardType: subscription.paymentMethod.cardType,
      last4: subscription.paymentMethod.last4,
      expirationDate: subscription.paymentMethod.expirationDate,
    },
    addOns: addOns.map((addOn) => ({
      addOnId: addOn.addOnId,
      name: addOn.name,
      quantity: addOn.quantity,
      price: money(addOn.amountMinor),
    })),
    availableAddOns: available.map((offer) => ({
      addOnId: offer.addOnId,
      name: offer.name,
      price: money(offer.amountMinor),
      maxQuantity: offer.maxQuantity,
    })),
    createdAt: subscription.createdAt,
  };
}
