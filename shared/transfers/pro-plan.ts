/**
 * The file-transfer app's Pro plan as it is sold: one product, a monthly and a yearly price. The
 * server charges these amounts and nothing a request says; the web app shows the same ones.
 * Each price is a plan at the payment gateway (`gatewayPlanId`): in Braintree's control panel
 * for production, and registered with the local gateway by `npm start`.
 */
import type { Money } from '../payments/money';

export const PRO_PRODUCT_ID = 'transfer-pro';

export const PRO_PRICE_IDS = ['pro-monthly', 'pro-yearly'] as const;
export type ProPriceId = (typeof PRO_PRICE_IDS)[number];

export interface ProPrice extends Money {
  readonly priceId: ProPriceId;
  readonly interval: 'month' | 'year';
  /** Months one payment covers. */
  readonly billingFrequencyMonths: number;
  readonly gatewayPlanId: string;
}

export const PRO_PRICES: Readonly<Record<ProPriceId, ProPrice>> = {
  'pro-monthly': {
    priceId: 'pro-monthly',
    interval: 'month',
    billingFrequencyMonths: 1,
    amountMinor: 1200,
    currency: 'USD',
    gatewayPlanId: 'transfer-pro-monthly',
  },
  'pro-yearly': {
    priceId: 'pro-yearly',
    interval: 'year',
    billingFrequencyMonths: 12,
    amountMinor: 12000,
    currency: 'USD',
    gatewayPlanId: 'transfer-pro-yearly',
  },
};

export const PRO_PRODUCT = {
  productId: PRO_PRODUCT_ID,
  name: 'Transfer Pro',
  description: 'Bigger transfers that stay up longer, for people who send files for a living.',
} as const;

