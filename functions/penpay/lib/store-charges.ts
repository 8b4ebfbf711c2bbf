/**
 * The store checkout's steps at the shop's gateway: the one-time lines as one sale, each
 * subscription line as a subscription on its grade's plan (whose creation charges its first
 * cycle).
 *
 * Every step can be found again by an id derived from the invoice: the sale by its order id (the
 * invoice id), each subscription by `s_<invoiceId>_<n>`. So an attempt resumed after a lost
 * answer, a lapsed claim or a decline finds what earlier attempts did and charges only what is
 * still missing; paying a partly paid invoice again (another card) charges only what is missing
 * too: the sale is found by its order id (and its id is on the invoice), the started
 * subscriptions by their ids.
 *
 * Order of the charges. The sale goes first, then the subscriptions in line order. Braintree
 * charges a subscription's first cycle when it is made and the port has no refund, so either
 * order leaves something paid when a later charge is declined; neither can be undone (what is
 * then kept and said: store-order-records.ts). The sale goes first because it is the one charge
 * that is found by a search (the subscriptions by a direct read), and because a cart's one-time
 * lines are usually most of it: a decline of the sale then leaves nothing paid at all.
 */
import { toDecimalAmount } from '../../../shared/payments/money';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import {
  type GatewaySubscription,
  STORE_DISCOUNT_ID,
  type GatewayTransaction,
  MONEY_TAKEN_STATUSES,
  PaymentDeclined,
  findSubscriptionIfAny,
  SubscriptionIdTaken,
} from '../../lib/payments/gateway';
import { subscriptionDiscountsOf } from '../../lib/payments/discount-codes';
import type { InvoiceClaim } from '../../lib/payments/invoices';
import {
  type Card,
  type CheckedLine,
  type Checkout,
  type Progress,
  quantified,
  splitLines,
  type StoreCheckoutRequest,
} from './store-checkout-lines';

const saleAmountMinor = (lines: readonly CheckedLine[]) =>
  lines.reduce((sum, { line }) => sum + line.amountMinor * line.quantity - (line.discountMinor ?? 0), 0);

/** A subscription line's discount as Braintree takes it: the merchant's discount STORE_DISCOUNT_ID at our amount. */
const subscriptionDiscounts = (checkout: Checkout, line: CheckedLine['line']) =>
  subscriptionDiscountsOf(checkout.invoice, line, STORE_DISCOUNT_ID);

/** The gateway's steps, resumed where earlier attempts at the same invoice stopped. `progress` fills as they go. */
export async function chargeAtGateway(
  db: Db,
  checkout: Checkout,
  progress: Progress,
  request: StoreCheckoutRequest,
): Promise<void> {
  const { invoice, claim, gateway } = checkout;
  const missing = checkout.subscriptionLines.filter(({ subscriptionId }) => !checkout.stored.has(subscriptionId));
  const needsSale = checkout.onceLines.length > 0;
  if (needsSale && (claim.attempt > 1 || invoice.transactionId !== undefined)) {
    const found = await gateway.findSaleByOrderId(invoice.invoiceId);
    if (found && MONEY_TAKEN_STATUSES.has(found.status)) progress.sale = found;
  }
  if (claim.attempt > 1) {
    for (const { subscriptionId } of missing) {
      const found = await findSubscriptionIfAny(gateway, subscriptionId);
      if (found) progress.subscriptions.set(subscriptionId, found);
    }
  }
  const saleMissing = needsSale && progress.sale === null && invoice.transactionId === undefined;
  const subscriptionsMissing = missing.filter(({ subscriptionId }) => !progress.subscriptions.has(subscriptionId));
  // Everything was charged by an attempt whose answer was lost: no card is needed (its nonce may be spent).
  if (!saleMissing && subscriptionsMissing.length === 0 && invoice.paymentMethod) {
    progress.card = invoice.paymentMethod;
    return;
  }

  await gateway.ensureCustomer({
    id: checkout.customer.id,
    email: checkout.customer.gatewayEmail,
    name: checkout.customer.name,
  });
  const card = await gateway.vaultPaymentMethod({
    customerId: checkout.customer.id,
    nonce: request.nonce,
    ...(request.deviceData ? { deviceData: request.deviceData } : {}),
  });
  progress.card = card;
  // Kept before any charge, so an attempt resumed after this one stopped can still show the card.
  await patchOwnAttempt(db, claim, { paymentMethod: card });

  if (saleMissing) {
    claim.chargeSent = true;
    progress.sale = await gateway.sale({
      amount: toDecimalAmount(saleAmountMinor(checkout.onceLines)),
      paymentMethodToken: card.token,
      orderId: invoice.invoiceId,
    });
    progress.chargedNow.add(progress.sale.id);
  }
  if (progress.sale && invoice.transactionId === undefined) {
    // At once: from here the sale is known to the invoice even if nothing else of this attempt is written.
    await patchOwnAttempt(db, claim, { transactionId: progress.sale.id });
  }

  for (const { grade, line, subscriptionId } of subscriptionsMissing) {
    // Checked by prepare: a line still to charge has its grade, sold by subscription.
    if (!grade?.plan) throw new Error(`The grade of subscription line ${subscriptionId} has no plan`);
    let subscription: GatewaySubscription;
    claim.chargeSent = true;
    try {
      subscription = await gateway.createSubscription({
        id: subscriptionId,
        planId: grade.plan.braintreePlanId,
        paymentMethodToken: card.token,
        price: toDecimalAmount(line.amountMinor),
        discounts: subscriptionDiscounts(checkout, line),
      });
      const first = firstCharge(subscription);
      if (first) progress.chargedNow.add(first.id);
    } catch (error) {
      if (!(error instanceof SubscriptionIdTaken)) throw error;
      subscription = await gateway.findSubscription(subscriptionId);
    }
    progress.subscriptions.set(subscriptionId, subscription);
  }
}

/** Writes to the invoice only while this attempt's claim is the latest: a lapsed claim writes nothing. */
async function patchOwnAttempt(
  db: Db,
  claim: InvoiceClaim,
  set: { paymentMethod: Card } | { transactionId: string },
): Promise<void> {
  try {
    await db.entities.invoice
      .patch({ invoiceId: claim.invoice.invoiceId })
      .set(set)
      .where((attributes, { eq }) => eq(attributes.attempt, claim.attempt))
      .go();
  } catch (error) {
    // A later claim took over: it finds what this attempt charged by its ids, and its final write decides.
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** The declined charge's own words, and what of the order is paid and what is not. */
export function partlyPaidDecline(checkout: Checkout, progress: Progress, decline: PaymentDeclined): PaymentDeclined {
  const { paid, pending } = splitLines(checkout, progress);
  const paidText = paid.map(({ line }) => quantified(line)).join(', ');
  const pendingText = pending.map(({ line }) => quantified(line)).join(', ');
  return new PaymentDeclined(
    decline.reason,
    `${decline.message} Already paid, and not charged again: ${paidText}. Still to pay: ${pendingText}. Pay again, with another card, to complete the order.`,
    { cause: decline, details: { ...decline.details, partlyPaid: true } },
  );
}

/** A subscription's first charge: the oldest of its transactions that took the money. */
export function firstCharge(subscription: GatewaySubscription): GatewayTransaction | undefined {
  return [...subscription.transactions].reverse().find((transaction) => MONEY_TAKEN_STATUSES.has(transaction.status));
}
