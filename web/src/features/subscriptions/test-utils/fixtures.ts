import { vi } from 'vitest';
import {
  encodeLocalClientToken,
  type LocalTokenizeRefusal,
  type LocalTokenizeRequest,
  type LocalTokenizeResponse,
} from '@shared/payments/local-gateway';
import { PLAN_LIMITS } from '@shared/transfers/plans';
import { proSubscriptionView } from '../../../test/pro-subscription';
import type { StubbedApi } from '../../../test/stub-routes';
import type {
  CheckoutScreen,
  InvoiceView,
  PaymentClient,
  PaymentRecordView,
  PriceView,
  ProductStock,
  SubscriptionScreen,
  SubscriptionView,
  UpgradesScreen,
} from '../api/subscription-keys';

const seo = (title: string) => ({ title, description: `${title}.`, keywords: [], imageUrl: 'https://example.com/og.png' });

export const monthly: PriceView = {
  priceId: 'pro-monthly',
  interval: 'month',
  billingFrequencyMonths: 1,
  price: { amountMinor: 1200, currency: 'USD' },
  perMonth: { amountMinor: 1200, currency: 'USD' },
};

export const yearly: PriceView = {
  priceId: 'pro-yearly',
  interval: 'year',
  billingFrequencyMonths: 12,
  price: { amountMinor: 12000, currency: 'USD' },
  perMonth: { amountMinor: 1000, currency: 'USD' },
};

export const stock: ProductStock = {
  product: {
    productId: 'transfer-pro',
    name: 'Transfer Pro',
    description: 'Bigger transfers that stay up longer, for people who send files for a living.',
  },
  prices: [monthly, yearly],
  limits: { free: PLAN_LIMITS.free, pro: PLAN_LIMITS.pro },
};

export const makeSubscription = proSubscriptionView;

/** Canceled, with paid time left until Dec 26: what resuming is offered for. */
export const canceledWithPaidTime = (overrides: Partial<SubscriptionView> = {}) =>
  makeSubscription({
    status: 'Canceled',
    nextBillingDate: null,
    canceledAt: '2026-11-27T10:00:00.000Z',
    proEndsAt: '2026-12-26T00:00:00.000Z',
    resumeRenewsOn: '2026-12-26',
    ...overrides,
  });

export const pastDue = (overrides: Partial<SubscriptionView> = {}) =>
  makeSubscription({
    status: 'Past Due',
    balance: { amountMinor: 1200, currency: 'USD' },
    paidThroughDate: '2026-12-25',
    nextBillingDate: '2026-12-26',
    pastDueSince: '2026-12-27T09:00:00.000Z',
    graceEndsAt: '2027-01-03T09:00:00.000Z',
    proEndsAt: '2027-01-03T09:00:00.000Z',
    paymentMethod: { cardType: 'Visa', last4: '0341', expirationDate: '12/2030' },
    ...overrides,
  });

export const makeInvoice = (overrides: Partial<InvoiceView> = {}): InvoiceView => ({
  id: 'inv_jane_1',
  status: 'open',
  lines: [
    { productId: 'transfer-pro', priceId: 'pro-monthly', description: 'Transfer Pro, monthly', quantity: 1, amountMinor: 1200 },
  ],
  total: { amountMinor: 1200, currency: 'USD' },
  discount: null,
  lastDecline: null,
  subscriptionId: null,
  paidAt: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  ...overrides,
});

export const makePayment = (overrides: Partial<PaymentRecordView> = {}): PaymentRecordView => ({
  transactionId: 'txn_1',
  description: 'Transfer Pro, monthly',
  amount: { amountMinor: 1200, currency: 'USD' },
  chargedAt: '2026-11-26T10:00:00.000Z',
  card: { cardType: 'Visa', last4: '1111' },
  refunds: [],
  ...overrides,
});

export const upgradesScreen = (overrides: Partial<UpgradesScreen> = {}): UpgradesScreen => ({
  seo: seo('Transfer Pro: bigger transfers that last longer'),
  signedIn: true,
  currentPlan: PLAN_LIMITS.free,
  stock,
  subscription: null,
  ...overrides,
});

export const subscriptionScreen = (overrides: Partial<SubscriptionScreen> = {}): SubscriptionScreen => ({
  seo: seo('Your subscription · Transfer Pro'),
  currentPlan: PLAN_LIMITS.pro,
  subscription: makeSubscription(),
  payments: [makePayment()],
  stock,
  ...overrides,
});

/** Where the local card form sends the card in these tests: another origin than the app's, as in `npm start`. */
export const TOKENIZE_URL = 'http://127.0.0.1:4599/merchants/local-merchant/client_api/v1/payment_methods/credit_cards';

export const localPayment: PaymentClient = {
  environment: 'local',
  clientToken: encodeLocalClientToken({
    version: 1,
    environment: 'local',
    merchantId: 'local-merchant',
    tokenizeUrl: TOKENIZE_URL,
    authorizationFingerprint: 'fingerprint-for-tests',
    expiresAt: '2099-01-01T00:00:00.000Z',
  }),
};

export const checkoutScreen = (overrides: Partial<CheckoutScreen> = {}): CheckoutScreen => ({
  seo: seo('Checkout · Transfer Pro'),
  stock,
  price: monthly,
  invoice: makeInvoice(),
  payment: localPayment,
  subscription: null,
  ...overrides,
});

type TokenizeAnswer = { status: 201; body: LocalTokenizeResponse } | { status: number; body: LocalTokenizeRefusal };

/**
 * The local gateway's tokenize route beside the stubbed API: each card becomes a new nonce
 * naming its last four digits (`tokencc_1_1115`), or the answer `answer` gives.
 */
export function stubLocalGateway(api: StubbedApi, answer?: (request: LocalTokenizeRequest) => TokenizeAnswer | undefined) {
  const requests: LocalTokenizeRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (String(input) !== TOKENIZE_URL) return api.fetchMock(input, init);
      const request = JSON.parse(String(init.body)) as LocalTokenizeRequest;
      requests.push(request);
      const last4 = 'creditCard' in request ? request.creditCard.number.slice(-4) : '1881';
      const reply = answer?.(request) ?? {
        status: 201,
        body: { nonce: `tokencc_${requests.length}_${last4}`, details: { cardType: 'Visa', lastFour: last4 } },
      };
      return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return requests;
}
