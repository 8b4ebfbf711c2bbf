import type * as z from '@shared/zod';
import type { checkoutScreenSchema, subscriptionScreenSchema, upgradesScreenSchema } from '@shared/schemas/subscriptions';

export type {
  InvoiceView,
  PaymentClient,
  PaymentRecordView,
  PriceView,
  ProductStock,
  SubscriptionStatus,
  SubscriptionView,
} from '@shared/schemas/subscriptions';
export type { Money } from '@shared/payments/money';
export type { ProPriceId } from '@shared/transfers/pro-plan';
export type UpgradesScreen = z.infer<typeof upgradesScreenSchema>;
export type CheckoutScreen = z.infer<typeof checkoutScreenSchema>;
export type SubscriptionScreen = z.infer<typeof subscriptionScreenSchema>;
export type PlanLimitsView = SubscriptionScreen['currentPlan'];

/**
 * Query keys of the subscriptions feature, all under ['subscriptions']. Every answer but the
 * product stock depends on who asks, so the key carries the signed-in user ('' for a visitor):
 * signing in or out never shows someone else's plan from the cache.
 */
export const subscriptionKeys = {
  all: ['subscriptions'] as const,
  upgrades: (userId: string) => ['subscriptions', 'upgrades', userId] as const,
  checkout: (userId: string, priceId: string) => ['subscriptions', 'checkout', userId, priceId] as const,
  checkouts: (userId: string) => ['subscriptions', 'checkout', userId] as const,
  screen: (userId: string) => ['subscriptions', 'screen', userId] as const,
  clientToken: (userId: string) => ['subscriptions', 'client-token', userId] as const,
};

/**
 * The transfers feature's key prefix. Its limits follow the plan, but features do not import
 * each other: after a plan change everything under this prefix is refetched through the query
 * client instead of by the transfer pages' own keys.
 */
export const TRANSFERS_QUERY_PREFIX = ['transfers'] as const;

/** What the card form hands over (web/src/components/card-form): a single-use nonce for the card, never the card itself. */
export type { PaymentMethodNonce } from '../../../lib/payments/payment-method-nonce';
