import { PAST_DUE_GRACE_DAYS } from '../../../shared/payments/grace';
import { PRO_PRICES, PRO_PRODUCT, type ProPrice } from '../../../shared/transfers/pro-plan';
import { PLAN_LIMITS } from '../../../shared/transfers/plans';
import type {
  InvoiceView,
  ChargeRefundView,
  PaymentRecordView,
  PriceView,
  ProductStock,
  SubscriptionView,
} from '../../../shared/schemas/subscriptions';
import type { InvoiceItem } from '../../lib/db/entities/invoice';
import type { PaymentItem } from '../../lib/db/entities/payment';
import type { SubscriptionItem } from '../../lib/db/entities/subscription';
import { entitlementEndsAt, givesEntitlement, graceEndsAt } from '../../lib/payments/entitlement';
import { savingOf } from '../../lib/payments/discount-codes';
import { canResume, resumeBillingDateOf } from '../../lib/payments/subscription-resume';
import { isProPriceId } from './pro-offer';

export function toPriceView(price: ProPrice): PriceView {
  return {
    priceId: price.priceId,
    interval: price.interval,
    billingFrequencyMonths: price.billingFrequencyMonths,
    price: { amountMinor: price.amountMinor, currency: price.currency },
    perMonth: { amountMinor: Math.round(price.amountMinor / price.billingFrequencyMonths), currency: price.currency },
  };
}

export const proProductStock = (): ProductStock => ({
  product: { productId: PRO_PRODUCT.productId, name: PRO_PRODUCT.name, description: PRO_PRODUCT.description },
  prices: Object.values(PRO_PRICES).map(toPriceView),
  limits: { free: PLAN_LIMITS.free, pro: PLAN_LIMITS.pro },
});

export function toSubscriptionView(subscription: SubscriptionItem, now: Date): SubscriptionView {
  const priceId = isProPriceId(subscription.priceId) ? subscription.priceId : 'pro-monthly';
  const grace = graceEndsAt(subscription, PAST_DUE_GRACE_DAYS);
  const ends = entitlementEndsAt(subscription, PAST_DUE_GRACE_DAYS);
  return {
    id: subscription.subscriptionId,
    productId: subscription.productId,
    priceId,
    interval: PRO_PRICES[priceId].interval,
    status: subscription.status,
    price: { amountMinor: subscription.priceMinor, currency: subscription.currency },
    balance: { amountMinor: subscription.balanceMinor, currency: subscription.currency },
    paidThroughDate: subscription.paidThroughDate ?? null,
    nextBillingDate: subscription.status === 'Canceled' ? null : (subscription.nextBillingDate ?? null),
    pastDueSince: subscription.pastDueSince ?? null,
    graceEndsAt: grace?.toISOString() ?? null,
    canceledAt: subscription.canceledAt ?? null,
    givesPro: givesEntitlement(subscription, now, PAST_DUE_GRACE_DAYS),
    proEndsAt: ends?.toISOString() ?? null,
    resumeRenewsOn: canResume(subscription, now) ? resumeBillingDateOf(subscription.paidThroughDate) : null,
    paymentMethod: {
      cardType: subscription.paymentMethod.cardType,
      last4: subscription.paymentMethod.last4,
      expirationDate: subscription.paymentMethod.expirationDate,
    },
    createdAt: subscription.createdAt,
  };
}

export function toInvoiceView(invoice: InvoiceItem): InvoiceView {
  return {
    id: invoice.invoiceId,
    status: invoice.status,
    lines: invoice.lines.map(({ productId, priceId, description, quantity, amountMinor }) => ({
      productId,
      priceId,
      description,
      quantity,
      amountMinor,
    })),
    total: { amountMinor: invoice.totalMinor, currency: invoice.currency },
    discount: invoice.discount
      ? {
          code: invoice.discount.code,
          saving: { amountMinor: savingOf(invoice), currency: invoice.currency },
          appliesTo: invoice.discount.appliesTo,
        }
      : null,
    lastDecline: invoice.lastDecline ?? null,
    subscriptionId: invoice.subscriptionId ?? null,
    paidAt: invoice.paidAt ?? null,
    createdAt: invoice.createdAt,
  };
}

/** A charge as its payer sees it, with the refunds of it that went through (`refunds`, oldest first). */
export function toPaymentRecordView(payment: PaymentItem, refunds: ChargeRefundView[] = []): PaymentRecordView {
  return {
    transactionId: payment.transactionId,
    description: payment.description,
    amount: { amountMinor: payment.amountMinor, currency: payment.currency },
    chargedAt: payment.chargedAt,
    card: payment.cardType && payment.last4 ? { cardType: payment.cardType, last4: payment.last4 } : null,
    refunds,
  };
}
