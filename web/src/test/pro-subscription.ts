import type { SubscriptionView } from '@shared/schemas/subscriptions';

/**
 * Jane's Pro plan as the API answers it (renewing, paid by Visa), for every feature's tests that
 * show it: the account page and the subscription pages describe the same subscription.
 */
export const proSubscriptionView = (overrides: Partial<SubscriptionView> = {}): SubscriptionView => ({
  id: 'sub_jane_1',
  productId: 'transfer-pro',
  priceId: 'pro-monthly',
  interval: 'month',
  status: 'Active',
  price: { amountMinor: 1200, currency: 'USD' },
  balance: { amountMinor: 0, currency: 'USD' },
  paidThroughDate: '2026-12-25',
  nextBillingDate: '2026-12-26',
  pastDueSince: null,
  graceEndsAt: null,
  canceledAt: null,
  givesPro: true,
  proEndsAt: null,
  resumeRenewsOn: null,
  paymentMethod: { cardType: 'Visa', last4: '1111', expirationDate: '12/2030' },
  createdAt: '2026-11-26T10:00:00.000Z',
  ...overrides,
});
