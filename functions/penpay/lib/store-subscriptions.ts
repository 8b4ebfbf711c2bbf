/**
 * A customer's subscriptions at shops: subscription items whose seller is a merchant account,
 * billed by the shop's own gateway. Our copy follows the gateway's state through the billing
 * engine (subscription-sync.ts: a copy is replaced only by a later one, the shop's dashboard
 * counts moving in the same transaction); what is the shop's own is kept here: the add-ons named
 * as the grade names them, each charge in the shop's sales ledger once, and the telling in the
 * shop's name.
 */
import { fromDecimalAmount } from '../../../shared/payments/money';
import { getBatch } from '../../lib/db/batches';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { PaymentItem } from '../../lib/db/entities/payment';
import type { ProductStockItem } from '../../lib/db/entities/product-stock';
import type { ProductStockGradeItem } from '../../lib/db/entities/product-stock-grade';
import type { SubscriptionItem } from '../../lib/db/entities/subscription';
import type { Db } from '../../lib/db/service';
import { getUser } from '../../lib/db/users';
import { Conflict, NotFound } from '../../lib/errors';
import { graceEndsAt } from '../../lib/payments/entitlement';
import type {
  GatewayAddOn,
  GatewaySubscription,
  GatewayTransaction,
  PaymentGateway,
  PaymentMethodSummary,
} from '../../lib/payments/gateway';
import { confirmCancellation, sendReceipts, tellPaymentFailed, tellPaymentRecovered } from '../../lib/payments/payment-mail';
import { PLATFORM_SELLER_ID } from '../../lib/payments/pro-plan-access';
import { PAST_DUE_GRACE_DAYS } from '../../../shared/payments/grace';
import { isPaid, recordPayments, syncSubscription } from '../../lib/payments/subscription-sync';
import { readGrade, readProduct } from './catalog';
import { readMerchantById } from './merchants';
import { orderScopesOf, recordStoreCharge } from './sales-ledger';
import { shopGateway } from './shop-gateway';
import { storeBillingUrl, storeVoice } from './store-mail';

type Status = SubscriptionItem['status'];
type StoredAddOn = NonNullable<SubscriptionItem['addOns']>[number];

/** Charges a sync looks at: a cycle makes one, a retry or a prorated add-on another; older ones were seen before. */
const RECENT_TRANSACTIONS = 5;

export class StoreSubscriptionNotFound extends NotFound {
  constructor() {
    super('No such subscription.');
  }
}

/** One of the caller's subscriptions at a shop; anyone else's (or a Pro plan one) is as absent as a made-up id. */
export async function requireOwnStoreSubscription(db: Db, subscriptionId: string, customerId: string): Promise<SubscriptionItem> {
  const { data } = await db.entities.subscription.get({ subscriptionId }).go({ consistent: true });
  if (!data || data.customerId !== customerId || data.sellerId === PLATFORM_SELLER_ID) throw new StoreSubscriptionNotFound();
  return data;
}

/**
 * The shop that sells a subscription and its own gateway, where everything about the
 * subscription is done.
 */
export async function openShopOf(
  db: Db,
  subscription: Pick<SubscriptionItem, 'sellerId'>,
): Promise<{ merchant: MerchantAccountItem; gateway: PaymentGateway }> {
  const merchant = await readMerchantById(db, subscription.sellerId);
  if (!merchant?.gateway)
    throw new Conflict('This shop takes no payments right now, so its subscriptions cannot be changed. Try again later.');
  return { merchant, gateway: await shopGateway(db, merchant) };
}

/** What a subscription is of: its shop, product and grade, each read once and only when needed. */
export interface SubscriptionContext {
  merchant(): Promise<MerchantAccountItem | null>;
  product(): Promise<ProductStockItem | null>;
  grade(): Promise<ProductStockGradeItem | null>;
}

export function subscriptionContext(
  db: Db,
  subscription: Pick<SubscriptionItem, 'sellerId' | 'productId' | 'priceId'>,
  known: { merchant?: MerchantAccountItem; grade?: ProductStockGradeItem } = {},
): SubscriptionContext {
  const once = <T>(read: () => Promise<T>) => {
    let value: Promise<T> | undefined;
    return () => (value ??= read());
  };
  return {
    merchant: once(async () => known.merchant ?? (await readMerchantById(db, subscription.sellerId))),
    product: once(() => readProduct(db, subscription.productId)),
    grade: once(async () => known.grade ?? (await readGrade(db, subscription.priceId))),
  };
}

/** "Coffee beans — Monthly", as a sale and a payment read. */
export async function describeStoreSubscription(context: SubscriptionContext): Promise<string> {
  const [product, grade] = await Promise.all([context.product(), context.grade()]);
  return `${product?.title ?? 'A product'} — ${grade?.name ?? 'subscription'}`;
}

/** The gateway's add-ons as we keep them, named as the grade names them (or as they were named when added). */
export function storedAddOns(
  addOns: readonly GatewayAddOn[],
  grade: ProductStockGradeItem | null,
  previous: readonly StoredAddOn[] = [],
): StoredAddOn[] {
  return addOns.map((addOn) => ({
    addOnId: addOn.id,
    name:
      grade?.plan?.addOns.find((offer) => offer.addOnId === addOn.id)?.name ??
      previous.find((kept) => kept.addOnId === addOn.id)?.name ??
      addOn.id,
    quantity: addOn.quantity,
    amountMinor: fromDecimalAmount(addOn.amount),
  }));
}

/**
 * Each successful charge of the gateway's that has no payment item yet: first in the shop's
 * sales ledger (which counts a transaction once), then as the customer's payment, whose
 * conditional put makes this call the one that tells the customer. In that order, a sync cut
 * short between the two finishes the charge next time instead of leaving it out of the figures.
 * Answers the renewals recorded by this call; the subscription's first charge is the checkout's
 * order, whose receipt the checkout sends.
 */
async function recordNewCharges(
  db: Db,
  subscription: SubscriptionItem,
  gateway: GatewaySubscription,
  context: SubscriptionContext,
): Promise<PaymentItem[]> {
  const paid = gateway.transactions.slice(0, RECENT_TRANSACTIONS).filter(isPaid);
  if (paid.length === 0) return [];
  const known = await getBatch({
    keys: paid.map((transaction) => ({ transactionId: transaction.id })),
    send: async (keys) => {
      const { data, unprocessed } = await db.entities.payment.get(keys).go();
      return { data, unprocessed: unprocessed.map((key) => ({ transactionId: key.transactionId })) };
    },
    what: 'payments',
  });
  const recorded = new Set(known.map((payment) => payment.transactionId));
  const unseen = paid.filter((transaction) => !recorded.has(transaction.id)).reverse();
  if (unseen.length === 0) return [];
  const [description, merchant] = await Promise.all([describeStoreSubscription(context), context.merchant()]);
  const shopName = merchant?.shopName ?? 'A shop';
  const firstCharge = gateway.transactions.at(-1);
  const renewals: PaymentItem[] = [];
  for (const transaction of unseen) {
    const kind = transaction.id === firstCharge?.id ? 'order' : 'renewal';
    const [payment] = await recordSubscriptionCharge(db, subscription, transaction, { kind, description, shopName });
    if (payment && kind === 'renewal') renewals.push(payment);
  }
  return renewals;
}

/**
 * Where a subscription's first charge counts its cart's order: decided from the invoice's lines
 * and the subscription's number among them (its id ends in it), exactly as the checkout decides,
 * since either may record the charge first.
 */
async function orderScopesOfFirstCharge(db: Db, subscription: SubscriptionItem): Promise<Set<string> | undefined> {
  const number = Number(/_(\d+)$/.exec(subscription.subscriptionId)?.[1]);
  if (!Number.isInteger(number)) return undefined;
  const { data: invoice } = await db.entities.invoice.get({ invoiceId: subscription.invoiceId }).go();
  return invoice ? orderScopesOf(invoice.lines, number) : undefined;
}

/**
 * One charge of a subscription, in the shop's ledger and the customer's payments (the ledger
 * first: see recordNewCharges). The customer's payment names the shop, as the checkout's do: it
 * is listed beside other shops' and the platform's. Answers the payment item when this call made it.
 */
export async function recordSubscriptionCharge(
  db: Db,
  subscription: SubscriptionItem,
  transaction: GatewayTransaction,
  charge: { kind: 'order' | 'renewal' | 'add-on'; description: string; shopName: string },
): Promise<PaymentItem[]> {
  const [customer, opensOrderIn] = await Promise.all([
    getUser(db, { userId: subscription.customerId }),
    charge.kind === 'order' ? orderScopesOfFirstCharge(db, subscription) : undefined,
  ]);
  const amountMinor = fromDecimalAmount(transaction.amount);
  await recordStoreCharge(db, {
    merchantAccountId: subscription.sellerId,
    transactionId: transaction.id,
    kind: charge.kind,
    ...(opensOrderIn ? { opensOrderIn } : {}),
    invoiceId: subscription.invoiceId,
    subscriptionId: subscription.subscriptionId,
    customer: {
      id: subscription.customerId,
      name: customer?.name || customer?.username || 'A customer',
      email: customer?.email ?? null,
    },
    paidAt: transaction.createdAt,
    currency: transaction.currency,
    lines: [
      {
        productStockId: subscription.productId,
        productStockGradeId: subscription.priceId,
        description: charge.description,
        units: 1,
        amountMinor,
        // The gateway's word on what the discount code took off this very charge: a renewal's
        // discount (a code for every charge) is counted in "Discounts given" like the first's.
        ...(transaction.discountAmount ? { discountMinor: fromDecimalAmount(transaction.discountAmount) } : {}),
      },
    ],
  });
  return recordPayments(db, subscription, [transaction], `${charge.shopName}: ${charge.description}`);
}

/**
 * The storefront's counterpart of the Pro plan's applyGatewayState: our copy takes the gateway's
 * state when it is newer (the counts moving with its status), new charges are recorded once,
 * and the customer hears what it means: a receipt per renewal, a failed renewal, a recovery, a
 * cancellation (whoever canceled: the customer, or the merchant in their control panel).
 *
 * `merchantAccountId` names the shop whose gateway answered: a copy sold by another shop is left
 * alone (a merchant controls their own gateway, and could make a subscription there under the
 * id of someone else's). Answers the copy as it now is; null when there is none to apply to.
 */
export async function applyStoreGatewayState(
  db: Db,
  gateway: GatewaySubscription,
  now: Date,
  options: {
    merchantAccountId?: string;
    paymentMethod?: PaymentMethodSummary;
    merchant?: MerchantAccountItem;
    grade?: ProductStockGradeItem;
  } = {},
): Promise<SubscriptionItem | null> {
  const { data: previous } = await db.entities.subscription.get({ subscriptionId: gateway.id }).go({ consistent: true });
  const sellerId = options.merchantAccountId ?? options.merchant?.merchantAccountId;
  if (!previous || previous.sellerId === PLATFORM_SELLER_ID || (sellerId !== undefined && previous.sellerId !== sellerId)) {
    return null;
  }
  const context = subscriptionContext(db, previous, {
    ...(options.merchant ? { merchant: options.merchant } : {}),
    ...(options.grade ? { grade: options.grade } : {}),
  });
  const { subscription, changes } = await syncSubscription(db, gateway, {
    now,
    previous,
    ...(options.paymentMethod ? { paymentMethod: options.paymentMethod } : {}),
    ownFields: async (current, copy) => ({ addOns: storedAddOns(current.addOns, await context.grade(), copy.addOns) }),
    recordCharges: (copy, current) => recordNewCharges(db, copy, current, context),
  });
  if (!subscription) return null;
  await tellCustomer(
    db,
    subscription,
    { from: changes.previousStatus ?? subscription.status, applied: changes.applied, renewals: changes.newPayments },
    context,
    now,
  );
  return subscription;
}

async function tellCustomer(
  db: Db,
  subscription: SubscriptionItem,
  change: { from: Status; applied: boolean; renewals: PaymentItem[] },
  context: SubscriptionContext,
  now: Date,
): Promise<void> {
  const to = subscription.status;
  const statusChanged = change.applied && change.from !== to;
  if (change.renewals.length === 0 && !statusChanged) return;
  const shopName = (await context.merchant())?.shopName ?? 'the shop';
  if (change.renewals.length > 0) await sendReceipts(db, storeVoice(shopName), change.renewals, now);
  if (!statusChanged) return;
  const description = await describeStoreSubscription(context);
  if (to === 'Past Due') {
    const graceEnds = graceEndsAt(subscription, PAST_DUE_GRACE_DAYS);
    if (graceEnds) {
      await tellPaymentFailed(db, subscription, {
        description: `${description} at ${shopName}`,
        graceEndsAt: graceEnds,
        billingUrl: storeBillingUrl(),
        now,
      });
    }
  } else if (to === 'Active' && change.from === 'Past Due') {
    await tellPaymentRecovered(db, subscription, `${description} at ${shopName}`, now);
  } else if (to === 'Canceled') {
    await confirmCancellation(db, storeVoice(shopName), subscription, { description, now });
  }
}

/**
 * After a route's own add-on change, our copy carries the gateway's answer even when the sync
 * left it (Braintree stamps changes to the second, so a change in the same second as the last
 * one does not look newer). Only the route that made the change writes this way.
 */
export async function keepGatewayAddOns(
  db: Db,
  stored: SubscriptionItem,
  gateway: GatewaySubscription,
  grade: ProductStockGradeItem | null,
  now: Date,
): Promise<void> {
  const addOns = storedAddOns(gateway.addOns, grade, stored.addOns);
  if (JSON.stringify(addOns) === JSON.stringify(stored.addOns ?? [])) return;
  await db.entities.subscription
    .patch({ subscriptionId: stored.subscriptionId })
    .set({ addOns, updatedAt: now.toISOString() })
    .go({ response: 'none' });
}
