import { vi } from 'vitest';
import { encodeLocalClientToken, type LocalTokenizeRequest, type LocalTokenizeResponse } from '@shared/payments/local-gateway';
import type { StubbedApi } from '../../../test/stub-routes';
import type {
  CartInvoice,
  CartItemView,
  GradeView,
  OpenCartView,
  OrderView,
  PaymentClient,
  ProductStockView,
  ShopView,
  StoreInvoiceView,
  StoreSubscriptionView,
} from '../api/store-keys';

/** Ids as the API makes them: a prefix and 20 lower-case letters and digits. */
export const ids = {
  shop: 'mer_penshop0000000000001',
  otherShop: 'mer_inkshop0000000000002',
  notebook: 'prd_notebook000000000001',
  journal: 'prd_journal0000000000002',
  club: 'prd_club0000000000000003',
  a5: 'grd_a5000000000000000001',
  a4: 'grd_a4000000000000000002',
  monthlyBox: 'grd_monthlybox0000000003',
  retired: 'grd_retired0000000000004',
  cartA5: 'cit_a5000000000000000001',
  cartBox: 'cit_box00000000000000002',
  cartRetired: 'cit_retired0000000000003',
} as const;

const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' });
const CREATED = '2026-11-01T10:00:00.000Z';

export const makeShop = (overrides: Partial<ShopView> = {}): ShopView => ({
  id: ids.shop,
  handle: 'pen-shop',
  shopName: 'The Pen Shop',
  description: 'Fountain pens, paper and ink, shipped from Lisbon.',
  currency: 'USD',
  logo: { fileId: 'file_logo_000001', url: 'https://files.example/logo.png' },
  acceptsPayments: true,
  ...overrides,
});

export const makeProduct = (overrides: Partial<ProductStockView> = {}): ProductStockView => ({
  id: ids.notebook,
  merchantAccountId: ids.shop,
  title: 'Dot-grid notebook',
  description: 'Stitched, lies flat, 120 g paper that takes any ink.',
  images: [
    { fileId: 'file_notebook_01', url: 'https://files.example/notebook-1.jpg' },
    { fileId: 'file_notebook_02', url: 'https://files.example/notebook-2.jpg' },
  ],
  display: { tagline: 'Paper that loves ink', accentColor: null, featured: false, position: 1 },
  visibility: 'public',
  stocked: true,
  priceFrom: usd(1500),
  gradeCount: 2,
  hasGradeOnSale: true,
  createdAt: CREATED,
  updatedAt: CREATED,
  ...overrides,
});

export const makeGrade = (overrides: Partial<GradeView> = {}): GradeView => ({
  id: ids.a5,
  productStockId: ids.notebook,
  merchantAccountId: ids.shop,
  name: 'A5',
  description: 'Pocket size.',
  display: { badge: null, highlighted: false, position: 0, features: ['96 pages', 'Dot grid'] },
  visibility: 'public',
  stocked: true,
  price: usd(1500),
  billing: { kind: 'once' },
  purchasable: true,
  createdAt: CREATED,
  updatedAt: CREATED,
  ...overrides,
});

export const monthlyBoxGrade = (overrides: Partial<GradeView> = {}): GradeView =>
  makeGrade({
    id: ids.monthlyBox,
    productStockId: ids.club,
    name: 'Ink of the month',
    description: 'A new bottle each month.',
    display: { badge: 'Most popular', highlighted: true, position: 0, features: ['One 50 ml bottle', 'Free shipping'] },
    price: usd(1000),
    billing: {
      kind: 'subscription',
      braintreePlanId: 'monthly',
      billingFrequencyMonths: 1,
      addOns: [
        { addOnId: 'extra-seat', name: 'Extra bottle', price: usd(200), maxQuantity: 3 },
        { addOnId: 'priority-support', name: 'Gift wrap', price: usd(500), maxQuantity: 1 },
      ],
    },
    ...overrides,
  });

export const makeCartItem = (overrides: Partial<CartItemView> = {}): CartItemView => ({
  id: ids.cartA5,
  merchantAccountId: ids.shop,
  productStockId: ids.notebook,
  productStockGradeId: ids.a5,
  productTitle: 'Dot-grid notebook',
  gradeName: 'A5',
  billing: 'once',
  quantity: 2,
  unitPrice: usd(1500),
  addedUnitPrice: usd(1500),
  status: 'ok',
  addedAt: CREATED,
  ...overrides,
});

export const boxCartItem = (overrides: Partial<CartItemView> = {}): CartItemView =>
  makeCartItem({
    id: ids.cartBox,
    productStockId: ids.club,
    productStockGradeId: ids.monthlyBox,
    productTitle: 'Ink club',
    gradeName: 'Ink of the month',
    billing: 'subscription',
    quantity: 1,
    unitPrice: usd(1000),
    addedUnitPrice: usd(1000),
    ...overrides,
  });

export const makeInvoice = (overrides: Partial<StoreInvoiceView> = {}): StoreInvoiceView => ({
  id: 'inv_cart_000000001',
  merchantAccountId: ids.shop,
  status: 'open',
  lines: [
    {
      productStockId: ids.notebook,
      productStockGradeId: ids.a5,
      description: 'Dot-grid notebook, A5',
      billing: 'once',
      quantity: 2,
      unitPrice: usd(1500),
      discount: usd(0),
    },
    {
      productStockId: ids.club,
      productStockGradeId: ids.monthlyBox,
      description: 'Ink club, Ink of the month',
      billing: 'subscription',
      quantity: 1,
      unitPrice: usd(1000),
      discount: usd(0),
    },
  ],
  total: usd(4000),
  discount: null,
  lastDecline: null,
  paidAt: null,
  createdAt: CREATED,
  ...overrides,
});

export const makeCart = (overrides: Partial<CartInvoice> = {}): CartInvoice => ({
  shop: makeShop(),
  items: [makeCartItem(), boxCartItem()],
  invoice: makeInvoice(),
  ...overrides,
});

export const makeSubscription = (overrides: Partial<StoreSubscriptionView> = {}): StoreSubscriptionView => ({
  id: 'sub_ink_000001',
  shop: { id: ids.shop, handle: 'pen-shop', shopName: 'The Pen Shop' },
  productStockId: ids.club,
  productStockGradeId: ids.monthlyBox,
  productTitle: 'Ink club',
  gradeName: 'Ink of the month',
  status: 'Active',
  price: usd(1000),
  billingFrequencyMonths: 1,
  balance: usd(0),
  nextBillingDate: '2026-12-01',
  paidThroughDate: '2026-11-30',
  canceledAt: null,
  paymentMethod: { cardType: 'Visa', last4: '1111', expirationDate: '12/2030' },
  addOns: [{ addOnId: 'priority-support', name: 'Gift wrap', quantity: 1, price: usd(500) }],
  availableAddOns: [{ addOnId: 'extra-seat', name: 'Extra bottle', price: usd(200), maxQuantity: 3 }],
  createdAt: CREATED,
  ...overrides,
});

export const makeOrder = (overrides: Partial<OrderView> = {}): OrderView => ({
  invoiceId: 'inv_order_00000001',
  shop: { id: ids.shop, handle: 'pen-shop', shopName: 'The Pen Shop' },
  lines: makeInvoice().lines,
  total: usd(4000),
  discount: null,
  card: { cardType: 'Visa', last4: '1111' },
  paidAt: '2026-11-02T09:30:00.000Z',
  downloads: [],
  refunded: usd(0),
  refunds: [],
  ...overrides,
});

/** Where the local card form sends the card in these tests: the shop's own local gateway account. */
export const TOKENIZE_URL = 'http://127.0.0.1:4599/merchants/pen-shop-local/client_api/v1/payment_methods/credit_cards';

export const shopPaymentClient: PaymentClient = {
  environment: 'local',
  clientToken: encodeLocalClientToken({
    version: 1,
    environment: 'local',
    merchantId: 'pen-shop-local',
    tokenizeUrl: TOKENIZE_URL,
    authorizationFingerprint: 'pen-shop-fingerprint',
    expiresAt: '2099-01-01T00:00:00.000Z',
  }),
};

/** The local gateway's tokenize route beside the stubbed API: each card becomes a nonce naming its last four digits. */
export function stubLocalGateway(api: StubbedApi) {
  const requests: LocalTokenizeRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (String(input) !== TOKENIZE_URL) return api.fetchMock(input, init);
      const request = JSON.parse(String(init.body)) as LocalTokenizeRequest;
      requests.push(request);
      const last4 = 'creditCard' in request ? request.creditCard.number.slice(-4) : '1881';
      const body: LocalTokenizeResponse = {
        nonce: `tokencc_${requests.length}_${last4}`,
        details: { cardType: 'Visa', lastFour: last4 },
      };
      return new Response(JSON.stringify(body), { status: 201, headers: { 'content-type': 'application/json' } });
    }),
  );
  return requests;
}

/** One of the person's open carts, as the top bar and a shop's page read them. */
export const makeOpenCart = (overrides: Partial<OpenCartView> = {}): OpenCartView => ({
  merchantAccountId: ids.shop,
  shop: { id: ids.shop, handle: 'pen-shop', shopName: 'The Pen Shop' },
  itemCount: 3,
  lineCount: 2,
  unavailableLineCount: 0,
  lastAddedAt: CREATED,
  ...overrides,
});
