/**
 * Paying a cart's invoice at the shop's own Braintree account, exactly once. The claim loop is
 * the billing engine's (functions/lib/payments/pay-invoice.ts), as for the Pro plan: the request
 * holding the invoice's claim is the only one that calls the gateway; every other one waits for
 * its outcome and answers the same. This module names the seller to the engine and runs one
 * claimed attempt: the lines checked against their grades now (store-checkout-lines.ts), the
 * charges at the gateway (store-charges.ts), the order recorded (store-order-records.ts). A
 * decline in the middle keeps what was paid, records it and says so.
 */
import type { InvoiceItem } from '../../lib/db/entities/invoice';
import type { Db } from '../../lib/db/service';
import { Conflict } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { isDefiniteRefusal, PaymentDeclined } from '../../lib/payments/gateway';
import type { InvoiceClaim } from '../../lib/payments/invoices';
import { payInvoiceOnce, type PaymentRefusals } from '../../lib/payments/pay-invoice';
import { PLATFORM_SELLER_ID } from '../../lib/payments/pro-plan-access';
import { planFamilyOf } from '../../lib/payments/subscription-slots';
import { chargeAtGateway, partlyPaidDecline } from './store-charges';
import { claimDiscountUse, releaseDiscountUse } from '../../lib/payments/discount-claims';
import { prepare, type Progress, type StoreCheckoutRequest } from './store-checkout-lines';
import { recordPaid, recordPart } from './store-order-records';

/**
 * Pays the caller's cart invoice; resolves once it is paid (by this call, or earlier, or by a
 * concurrent one). Throws 409 when the cart moved on from the invoice, when a line changed since
 * the invoice was made, or when the customer holds a subscription to one of its grades already
 * (nothing charged); 402 when a card is declined (the invoice stays payable); 503 when the
 * gateway is out of reach.
 */
export async function payStoreInvoice(db: Db, request: StoreCheckoutRequest): Promise<void> {
  await payInvoiceOnce(db, {
    invoiceId: request.invoiceId,
    customerId: request.customerId,
    accepts: isStoreInvoice,
    familiesOf: (invoice) =>
      invoice.lines
        .filter((line) => line.billing === 'subscription')
        .map((line) => planFamilyOf({ sellerId: invoice.sellerId, productId: line.productId, priceId: line.priceId })),
    refusals: STORE_REFUSALS,
    pay: (claim) => payClaimed(db, claim, request),
    answerPaid: async () => undefined,
    now: request.now,
  });
}

const isStoreInvoice = (invoice: InvoiceItem) => invoice.purpose === 'order' && invoice.sellerId !== PLATFORM_SELLER_ID;

/** Why a cart's invoice cannot be paid (each a 409; nothing was charged). */
const STORE_REFUSALS: PaymentRefusals = {
  superseded: (_, paidMeanwhile) =>
    new Conflict(
      paidMeanwhile
        ? 'Your cart was paid in another tab or window: nothing more was charged. Your orders show what you bought, and your cart what is still in it.'
        : 'Your cart changed since this invoice was made: nothing was charged. Review your cart and pay its new total.',
    ),
  familyTaken: (invoice, family, subscribed) => {
    const what = invoice.lines.find((line) => line.priceId === family)?.description ?? 'this subscription';
    return new Conflict(
      subscribed
        ? `You subscribe to ${what} already: nothing was charged. Manage it from your orders page, or take it out of your cart.`
        : `${what} is being paid in another tab or window right now: nothing was charged here. Reload the page in a moment.`,
    );
  },
};

/**
 * Charges what the invoice still lacks. On a failure after something was charged, what was paid
 * is kept and recorded before anything is answered, and a decline says what is paid and what is
 * not; the engine then puts the decline on the invoice (or releases it) and answers it.
 */
async function payClaimed(db: Db, claim: InvoiceClaim, request: StoreCheckoutRequest): Promise<void> {
  const checkout = await prepare(db, claim);
  // Before any charge: a code used up meanwhile stops the payment here, nothing charged.
  const discountClaimed = await claimDiscountUse(db, claim, request.now());
  const progress: Progress = { card: null, sale: null, subscriptions: new Map(), chargedNow: new Set() };
  try {
    await chargeAtGateway(db, checkout, progress, request);
  } catch (error) {
    const paidBefore = claim.invoice.transactionId !== undefined || checkout.stored.size > 0;
    const paidNow = progress.sale !== null || progress.subscriptions.size > 0;
    if (paidNow) {
      await recordPart(db, checkout, progress, request.now()).catch((recordError: unknown) => {
        logger.error('A partly paid order could not be recorded', {
          invoiceId: claim.invoice.invoiceId,
          errorName: (recordError as Error).name,
        });
      });
    }
    // No money moved (a decline, our request refused, or nothing sent): the use goes back. In doubt
    // (a timeout, a 5xx), it stays with the invoice until a resumed payment finds the outcome.
    if (discountClaimed && !paidBefore && !paidNow && (isDefiniteRefusal(error) || !claim.chargeSent)) {
      await releaseDiscountUse(db, claim);
    }
    if (error instanceof PaymentDeclined && (paidBefore || paidNow)) throw partlyPaidDecline(checkout, progress, error);
    throw error;
  }
  await recordPaid(db, checkout, progress, request.now());
}
