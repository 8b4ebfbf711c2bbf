/**
 * The Pro plan as the payments core sells it: invoice lines and the subscription an invoice
 * starts, priced from shared/transfers/pro-plan.ts and nothing a request says.
 */
import { PRO_PRICES, PRO_PRODUCT, PRO_PRODUCT_ID, type ProPrice, type ProPriceId } from '../../../shared/transfers/pro-plan';
import { getConfig } from '../../lib/config';
import type { InvoiceItem } from '../../lib/db/entities/invoice';
import type { SubscriptionItem } from '../../lib/db/entities/subscription';
import type { InvoiceLine } from '../../lib/payments/invoices';
import type { SubscriptionOffer } from '../../lib/payments/subscription-checkout';

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

/** What a Pro invoice buys; an invoice for anything else is not one this app fulfils. */
export function proOfferFor(invoice: InvoiceItem): SubscriptionOffer {
  const line = invoice.lines[0];
  if (invoice.purpose !== 'subscription' || !line || line.productId !== PRO_PRODUCT_ID || !isProPriceId(line.priceId)) {
    throw new Error(`Invoice ${invoice.invoiceId} is not for the Pro plan`);
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

export const describeSubscription = (subscription: Pick<SubscriptionItem, 'priceId'>) =>
  isProPriceId(subscription.priceId) ? describePrice(PRO_PRICES[subscription.priceId]) : PRO_PRODUCT.name;

/** Where receipts and payment emails send the subscriber. */
export const billingPageUrl = () => `${getConfig().webOrigin}/subscription`;
