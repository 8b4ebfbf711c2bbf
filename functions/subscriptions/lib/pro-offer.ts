/**
 * The Pro plan as the payments core sells it: invoice lines and the subscription an invoice
 * starts, priced from shared/transfers/pro-plan.ts and nothing a request says.
 */
import { PRO_PRICES, PRO_PRODUCT, PRO_PRODUCT_ID, type ProPrice, type ProPriceId } from '../../../shared/transfers/pro-plan';
import { APP_NAME } from '../../../shared/constants';
import { getConfig } from '../../lib/config';
import type { InvoiceItem } from '../../lib/db/entities/invoice';
import type { Db } from '../../lib/db/service';
import { Conflict } from '../../lib/errors';
import { openInvoiceFor } from '../../lib/payments/invoices';
import type { PaymentRefusals } from '../../lib/payments/pay-invoice';
import type { SellerVoice } from '../../lib/payments/payment-mail';
import { PLATFORM_SELLER_ID } from '../../lib/payments/pro-plan-access';
import type { SubscriptionItem } from '../../lib/db/entities/subscription';
import type { InvoiceLine } from '../../lib/payments/invoices';
import type { SubscriptionOffer } from '../../lib/payments/subscription-checkout';
import { priceProWithCode } from './pro-discounts';

export const describePrice = (price: Pick<ProPrice, 'interval'>) =>
  `${PRO_PRODUCT.name}, ${price.interval === 'year' ? 'yearly' : 'monthly'}`;

export function proInvoiceLines(priceId: ProPriceId): { lines: InvoiceLine[]; currency: string } {
  const price = PRO_PRICES[priceId];
  return {
    lines: [
      { productId: PRO_PRODUCT_ID, priceId, description: describePrice(price), quantity: 1, amountMinor: price.amountMinor },
    ],
    currency: price.currency,
  };
}

export function isProPriceId(value: string): value is ProPriceId {
  return Object.hasOwn(PRO_PRICES, value);
}

/**
 * The caller's current invoice for a Pro price: one per price, answered again until it is paid.
 * With a discount code, priced with it here (never by the browser) or refused with the reason; the
 * same price with and without a code are two invoices, so paying one never charges the other's
 * amount.
 */
export async function openProInvoice(
  db: Db,
  customerId: string,
  priceId: ProPriceId,
  now: Date,
  discountCode?: string,
): Promise<InvoiceItem> {
  const plain = proInvoiceLines(priceId);
  const discounted = discountCode
    ? await priceProWithCode(db, { customerId, code: discountCode, priceId, lines: plain.lines, now })
    : null;
  const priced = discounted ? { ...plain, lines: discounted.lines, discount: discounted.discount } : plain;
  return openInvoiceFor(db, {
    customerId,
    sellerId: PLATFORM_SELLER_ID,
    openAs: priceId,
    contentKey: discounted ? `${priceId}#code:${discounted.discount.codeKey}` : priceId,
    purpose: 'subscription',
    price: () => priced,
    now,
  });
}

/** What a Pro invoice buys; null for an invoice of anything else (a shop's), which this app does not fulfil. */
export function proOfferFor(invoice: InvoiceItem): SubscriptionOffer | null {
  const line = invoice.lines[0];
  if (
    invoice.sellerId !== PLATFORM_SELLER_ID ||
    invoice.purpose !== 'subscription' ||
    !line ||
    line.productId !== PRO_PRODUCT_ID ||
    !isProPriceId(line.priceId)
  ) {
    return null;
  }
  const price = PRO_PRICES[line.priceId];
  return {
    productId: PRO_PRODUCT_ID,
    priceId: price.priceId,
    gatewayPlanId: price.gatewayPlanId,
    priceMinor: price.amountMinor,
    currency: price.currency,
    billingFrequencyMonths: price.billingFrequencyMonths,
    description: describePrice(price),
  };
}

const ALREADY_PRO = 'You are on Pro already: manage your plan on your subscription page. Nothing was charged.';

/** Why a Pro invoice cannot be paid (each a 409; nothing was charged). */
export const PRO_REFUSALS: PaymentRefusals = {
  superseded: (_, paidMeanwhile) =>
    new Conflict(
      paidMeanwhile ? ALREADY_PRO : 'This checkout was replaced by a newer one: nothing was charged. Reload the page to pay.',
    ),
  familyTaken: (_, __, subscribed) =>
    new Conflict(
      subscribed
        ? ALREADY_PRO
        : 'Another payment for Pro is being made right now, in another tab or window: nothing was charged here. Reload the page in a moment.',
    ),
};

export const describeSubscription = (subscription: Pick<SubscriptionItem, 'priceId'>) =>
  isProPriceId(subscription.priceId) ? describePrice(PRO_PRICES[subscription.priceId]) : PRO_PRODUCT.name;

/** Where receipts and payment emails send the subscriber. */
export const billingPageUrl = () => `${getConfig().webOrigin}/subscription`;

/** The Pro plan's mails are the product's own. */
export const proVoice = (): SellerVoice => ({
  payee: APP_NAME,
  billingUrl: billingPageUrl(),
  billingLinkWords: 'Your subscription and past payments',
});
