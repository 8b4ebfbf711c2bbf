/**
 * Paying an invoice into a subscription, once. The steps at the gateway (the customer, the card
 * behind the nonce, the subscription whose creation charges the first cycle) are each safe to
 * repeat: the subscription's id is derived from the invoice, so a second attempt after a lapsed
 * claim or a timeout finds the subscription the first one made instead of billing again.
 *
 * An invoice priced with a discount code has its use claimed after the invoice's own claim and
 * before any gateway call (discount-claims.ts): a code used up meanwhile stops the payment with
 * nothing charged. The subscription is made with the code's discount (Braintree's `discounts.add`,
 * inheriting from the seller's `gatewayDiscountId`), so its first charge, or every charge, is the
 * price less the discount.
 */
import { formatMoney, toDecimalAmount } from '../../../shared/payments/money';
import type { InvoiceItem } from '../db/entities/invoice';
import type { PaymentItem } from '../db/entities/payment';
import type { SubscriptionItem } from '../db/entities/subscription';
import type { Db } from '../db/service';
import {
  type GatewayDiscount,
  type GatewaySubscription,
  type PaymentGateway,
  type PaymentMethodSummary,
  findSubscriptionIfAny,
  isDefiniteRefusal,
  SubscriptionIdTaken,
} from './gateway';
import { claimDiscountUse, releaseDiscountUse } from './discount-claims';
import { savingOf, subscriptionDiscountsOf } from './discount-codes';
import { type InvoiceClaim, paidPointerWrites, readOwnInvoice } from './invoices';
import { payInvoiceOnce, type PaymentRefusals } from './pay-invoice';
import { fillSlot, planFamilyOf } from './subscription-slots';
import { paymentsOf, stateFromGateway } from './subscription-sync';

/** What the invoice buys, from the seller's own product data. */
export interface SubscriptionOffer {
  productId: string;
  priceId: string;
  gatewayPlanId: string;
  priceMinor: number;
  currency: string;
  billingFrequencyMonths: number;
  /** How a charge reads on a receipt and in the billing history: "Transfer Pro, monthly". */
  description: string;
}

export interface PaidSubscription {
  invoice: InvoiceItem;
  subscription: SubscriptionItem;
  /** Charges recorded by this call (empty when it answered an invoice paid earlier): one receipt each. */
  newPayments: PaymentItem[];
}

/** The gateway's id of the subscription an invoice starts: Braintree takes letters, digits, - and _, at most 36. */
export const subscriptionIdFor = (invoiceId: string) => `s_${invoiceId}`.slice(0, 36);

export async function paySubscriptionInvoice(
  db: Db,
  gateway: PaymentGateway,
  request: {
    invoiceId: string;
    customer: { id: string; email: string; name?: string };
    nonce: string;
    deviceData?: string | undefined;
    /** What the invoice buys; null for an invoice this seller does not sell (answered as no invoice at all). */
    offerFor: (invoice: InvoiceItem) => SubscriptionOffer | null;
    refusals: PaymentRefusals;
    /** The seller's Control Panel discount a discount code's discount inherits from (Braintree takes no other). */
    gatewayDiscountId: string;
    now: () => Date;
  },
): Promise<PaidSubscription> {
  const offerOf = (invoice: InvoiceItem) => {
    const offer = request.offerFor(invoice);
    if (!offer) throw new Error(`Invoice ${invoice.invoiceId} was accepted with nothing to sell`);
    return offer;
  };
  return payInvoiceOnce(db, {
    invoiceId: request.invoiceId,
    customerId: request.customer.id,
    accepts: (invoice) => request.offerFor(invoice) !== null,
    familiesOf: (invoice) => [planFamilyOf({ sellerId: invoice.sellerId, ...offerOf(invoice) })],
    refusals: request.refusals,
    pay: (claim) => payClaimed(db, gateway, claim, offerOf(claim.invoice), request),
    answerPaid: (invoice) => answerPaid(db, invoice),
    now: request.now,
  });
}

async function answerPaid(db: Db, invoice: InvoiceItem): Promise<PaidSubscription> {
  if (!invoice.subscriptionId) throw new Error(`Invoice ${invoice.invoiceId} is paid but started no subscription`);
  const { data: subscription } = await db.entities.subscription
    .get({ subscriptionId: invoice.subscriptionId })
    .go({ consistent: true });
  if (!subscription) throw new Error(`Invoice ${invoice.invoiceId} is paid but its subscription is not stored`);
  return { invoice, subscription, newPayments: [] };
}

async function payClaimed(
  db: Db,
  gateway: PaymentGateway,
  claim: InvoiceClaim,
  offer: SubscriptionOffer,
  request: Parameters<typeof paySubscriptionInvoice>[2],
): Promise<PaidSubscription> {
  const { invoice } = claim;
  const subscriptionId = subscriptionIdFor(invoice.invoiceId);
  // Before any charge: a code used up meanwhile stops the payment here, nothing charged.
  const discountClaimed = await claimDiscountUse(db, claim, request.now());
  let started: Awaited<ReturnType<typeof startAtGateway>>;
  try {
    started = await startAtGateway(db, gateway, claim, {
      subscriptionId,
      offer,
      customer: request.customer,
      nonce: request.nonce,
      deviceData: request.deviceData,
      discounts: subscriptionDiscountsOf(invoice, invoice.lines[0] ?? {}, request.gatewayDiscountId),
    });
  } catch (error) {
    // No money moved (a decline, our request refused, or nothing sent): the use goes back. In doubt
    // (a timeout, a 5xx), it stays with the invoice until a resumed payment finds the outcome.
    if (discountClaimed && (isDefiniteRefusal(error) || !claim.chargeSent)) await releaseDiscountUse(db, claim);
    throw error;
  }
  const now = request.now();
  const at = now.toISOString();
  const { set } = stateFromGateway(started.gateway, undefined, now);
  const subscription: SubscriptionItem = {
    ...set,
    subscriptionId,
    customerId: invoice.customerId,
    sellerId: invoice.sellerId,
    productId: offer.productId,
    priceId: offer.priceId,
    gatewayPlanId: offer.gatewayPlanId,
    invoiceId: invoice.invoiceId,
    billingFrequencyMonths: offer.billingFrequencyMonths,
    paymentMethod: started.card,
    createdAt: at,
    updatedAt: at,
  };
  const firstCharge = started.gateway.transactions[0];
  // The first charge's record (and so its receipt) is written with the subscription, never after
  // it: a webhook that finds the subscription then finds its charge recorded too, and cannot
  // record it first without the code's saving in its description.
  const newPayments = paymentsOf(subscription, started.gateway.transactions, firstChargeDescription(invoice, offer));
  const result = await db.transaction
    .write(({ invoice: invoices, subscription: subscriptions, payment: payments, openInvoice }) => [
      invoices
        .patch({ invoiceId: invoice.invoiceId })
        .set({
          status: 'paid',
          paidAt: at,
          subscriptionId,
          ...(firstCharge ? { transactionId: firstCharge.id } : {}),
          updatedAt: at,
        })
        .remove(['payingUntil', 'inDoubt'])
        .where((attributes, { eq }) => `${eq(attributes.status, 'paying')} AND ${eq(attributes.attempt, claim.attempt)}`)
        .commit(),
      subscriptions.put(subscription).commit(),
      ...newPayments.map((payment) => payments.create(payment).commit()),
      ...paidPointerWrites(openInvoice, invoice),
    ])
    .go();
  if (result.canceled) {
    // Our claim lapsed and a later one finished the payment meanwhile: answer what it wrote.
    const settled = await readOwnInvoice(db, invoice.invoiceId, invoice.customerId);
    if (settled.status === 'paid') return answerPaid(db, settled);
    throw new Error(`Invoice ${invoice.invoiceId} was charged but could not be marked paid`);
  }
  await fillSlot(db, subscription, now);
  const paid = await readOwnInvoice(db, invoice.invoiceId, invoice.customerId);
  return { invoice: paid, subscription, newPayments };
}

/** The first charge as its receipt and the billing history say it: with the code's saving, when it had one. */
function firstChargeDescription(invoice: InvoiceItem, offer: SubscriptionOffer): string {
  const saving = savingOf(invoice);
  if (!invoice.discount || saving <= 0) return offer.description;
  return `${offer.description}, ${formatMoney({ amountMinor: saving, currency: invoice.currency })} off with ${invoice.discount.code}`;
}

/** The gateway's steps, resumed where an earlier attempt at the same invoice stopped. */
async function startAtGateway(
  db: Db,
  gateway: PaymentGateway,
  claim: InvoiceClaim,
  steps: {
    subscriptionId: string;
    offer: SubscriptionOffer;
    customer: { id: string; email: string; name?: string };
    nonce: string;
    deviceData?: string | undefined;
    discounts: GatewayDiscount[];
  },
): Promise<{ gateway: GatewaySubscription; card: PaymentMethodSummary }> {
  const { invoice } = claim;
  if (claim.attempt > 1 && invoice.paymentMethod) {
    const existing = await findSubscriptionIfAny(gateway, steps.subscriptionId);
    if (existing) return { gateway: existing, card: invoice.paymentMethod };
  }
  await gateway.ensureCustomer(steps.customer);
  const card = await gateway.vaultPaymentMethod({
    customerId: steps.customer.id,
    nonce: steps.nonce,
    ...(steps.deviceData ? { deviceData: steps.deviceData } : {}),
  });
  // Kept before the charge, so an attempt resumed after this one stopped can still show the card.
  await db.entities.invoice
    .patch({ invoiceId: invoice.invoiceId })
    .set({ paymentMethod: card })
    .where((attributes, { eq }) => eq(attributes.attempt, claim.attempt))
    .go();
  claim.chargeSent = true;
  try {
    const created = await gateway.createSubscription({
      id: steps.subscriptionId,
      planId: steps.offer.gatewayPlanId,
      paymentMethodToken: card.token,
      price: toDecimalAmount(steps.offer.priceMinor),
      ...(steps.discounts.length > 0 ? { discounts: steps.discounts } : {}),
    });
    return { gateway: created, card };
  } catch (error) {
    if (!(error instanceof SubscriptionIdTaken)) throw error;
    return { gateway: await gateway.findSubscription(steps.subscriptionId), card };
  }
}
