/**
 * Paying an invoice into a subscription, once. The steps at the gateway (the customer, the card
 * behind the nonce, the subscription whose creation charges the first cycle) are each safe to
 * repeat: the subscription's id is derived from the invoice, so a second attempt after a lapsed
 * claim or a timeout finds the subscription the first one made instead of billing again.
 */
import { toDecimalAmount } from '../../../shared/payments/money';
import type { InvoiceItem } from '../db/entities/invoice';
import type { PaymentItem } from '../db/entities/payment';
import type { SubscriptionItem } from '../db/entities/subscription';
import type { Db } from '../db/service';
import { Conflict } from '../errors';
import {
  type GatewaySubscription,
  PaymentDeclined,
  type PaymentGateway,
  type PaymentMethodSummary,
  PaymentRecordNotFound,
  SubscriptionIdTaken,
} from './gateway';
import { awaitPaymentOutcome, claimInvoice, type InvoiceClaim, readOwnInvoice, recordDecline, releaseInvoice } from './invoices';
import { recordPayments, stateFromGateway } from './subscription-sync';

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

/** Claims to make before giving up: a claim can be lost only to a request that then fails to reach the gateway. */
const CLAIM_ROUNDS = 3;

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
    offerFor: (invoice: InvoiceItem) => SubscriptionOffer;
    now: () => Date;
  },
): Promise<PaidSubscription> {
  const started = request.now();
  for (let round = 0; round < CLAIM_ROUNDS; round += 1) {
    const invoice = await readOwnInvoice(db, request.invoiceId, request.customer.id);
    if (invoice.status === 'paid') return answerPaid(db, invoice);
    if (invoice.status === 'void') throw new Conflict('This invoice was withdrawn and cannot be paid.');
    const claim = await claimInvoice(db, invoice, request.now());
    if (!claim) {
      const outcome = await awaitPaymentOutcome(db, invoice.invoiceId, request.customer.id, started);
      if (outcome) return answerPaid(db, outcome);
      continue;
    }
    return payClaimed(db, gateway, claim, request);
  }
  throw new Conflict('This invoice is being paid right now. Reload the page in a moment to see the result.');
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
  request: Parameters<typeof paySubscriptionInvoice>[2],
): Promise<PaidSubscription> {
  const { invoice } = claim;
  const offer = request.offerFor(invoice);
  const subscriptionId = subscriptionIdFor(invoice.invoiceId);
  let started: { gateway: GatewaySubscription; card: PaymentMethodSummary };
  try {
    started = await startAtGateway(db, gateway, claim, {
      subscriptionId,
      offer,
      customer: request.customer,
      nonce: request.nonce,
      deviceData: request.deviceData,
    });
  } catch (error) {
    if (error instanceof PaymentDeclined) await recordDecline(db, claim, error, request.now());
    else await releaseInvoice(db, claim, request.now());
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
  const result = await db.transaction
    .write(({ invoice: invoices, subscription: subscriptions, openInvoice }) => [
      invoices
        .patch({ invoiceId: invoice.invoiceId })
        .set({
          status: 'paid',
          paidAt: at,
          subscriptionId,
          ...(firstCharge ? { transactionId: firstCharge.id } : {}),
          updatedAt: at,
        })
        .remove(['payingUntil'])
        .where((attributes, { eq }) => `${eq(attributes.status, 'paying')} AND ${eq(attributes.attempt, claim.attempt)}`)
        .commit(),
      subscriptions.put(subscription).commit(),
      openInvoice
        .delete({ customerId: invoice.customerId, sellerId: invoice.sellerId, priceId: offer.priceId })
        .where((attributes, { eq }) => eq(attributes.invoiceId, invoice.invoiceId))
        .commit(),
    ])
    .go();
  if (result.canceled) {
    // Our claim lapsed and a later one finished the payment meanwhile: answer what it wrote.
    const settled = await readOwnInvoice(db, invoice.invoiceId, invoice.customerId);
    if (settled.status === 'paid') return answerPaid(db, settled);
    throw new Error(`Invoice ${invoice.invoiceId} was charged but could not be marked paid`);
  }
  const newPayments = await recordPayments(db, subscription, started.gateway.transactions, offer.description);
  const paid = await readOwnInvoice(db, invoice.invoiceId, invoice.customerId);
  return { invoice: paid, subscription, newPayments };
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
  },
): Promise<{ gateway: GatewaySubscription; card: PaymentMethodSummary }> {
  const { invoice } = claim;
  if (claim.attempt > 1 && invoice.paymentMethod) {
    const existing = await findSubscription(gateway, steps.subscriptionId);
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
  try {
    const created = await gateway.createSubscription({
      id: steps.subscriptionId,
      planId: steps.offer.gatewayPlanId,
      paymentMethodToken: card.token,
      price: toDecimalAmount(steps.offer.priceMinor),
    });
    return { gateway: created, card };
  } catch (error) {
    if (!(error instanceof SubscriptionIdTaken)) throw error;
    return { gateway: await gateway.findSubscription(steps.subscriptionId), card };
  }
}

async function findSubscription(gateway: PaymentGateway, id: string): Promise<GatewaySubscription | null> {
  try {
    return await gateway.findSubscription(id);
  } catch (error) {
    if (error instanceof PaymentRecordNotFound) return null;
    throw error;
  }
}
