import type {
  FiguresView,
  GatewayPlans,
  GradeDashboard,
  GradeView,
  MerchantAccountView,
  MerchantDashboard,
  ProductDashboard,
  ProductStockView,
  SaleView,
} from '../api/merchant-keys';

const seo = (title: string) => ({ title, description: `${title}.`, keywords: [], imageUrl: 'https://example.com/og.png' });

export const MERCHANT_ID = 'mer_aaaaaaaaaaaaaaaaaaaa';
export const PRODUCT_ID = 'prd_bbbbbbbbbbbbbbbbbbbb';
export const GRADE_ID = 'grd_cccccccccccccccccccc';
export const SUB_GRADE_ID = 'grd_dddddddddddddddddddd';

export const connection: NonNullable<MerchantAccountView['gateway']> = {
  environment: 'local',
  merchantId: 'local_merchant_1',
  connectedAt: '2026-11-02T10:00:00.000Z',
  webhookUrl: `http://localhost:3000/api/e/braintree/merchant/${MERCHANT_ID}/webhook`,
};

export const makeAccount = (overrides: Partial<MerchantAccountView> = {}): MerchantAccountView => ({
  id: MERCHANT_ID,
  handle: 'janes-prints',
  shopName: 'Jane’s Prints',
  description: 'Risograph prints and zines.',
  currency: 'USD',
  logo: null,
  gateway: connection,
  createdAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

export const makeProduct = (overrides: Partial<ProductStockView> = {}): ProductStockView => ({
  id: PRODUCT_ID,
  merchantAccountId: MERCHANT_ID,
  title: 'Zine club',
  description: 'A new zine in your letterbox.',
  images: [{ fileId: 'file_cover_000001', url: 'https://files.example/cover.png' }],
  display: { tagline: 'Fresh ink every month', accentColor: '#1d4ed8', featured: false, position: 0 },
  visibility: 'public',
  stocked: true,
  priceFrom: { amountMinor: 900, currency: 'USD' },
  gradeCount: 2,
  hasGradeOnSale: true,
  createdAt: '2026-11-03T10:00:00.000Z',
  updatedAt: '2026-11-03T10:00:00.000Z',
  ...overrides,
});

export const makeGrade = (overrides: Partial<GradeView> = {}): GradeView => ({
  id: GRADE_ID,
  productStockId: PRODUCT_ID,
  merchantAccountId: MERCHANT_ID,
  name: 'Single issue',
  description: 'The latest issue, once.',
  display: { badge: null, highlighted: false, position: 0, features: ['24 pages', 'Two colours'] },
  visibility: 'public',
  stocked: true,
  price: { amountMinor: 900, currency: 'USD' },
  billing: { kind: 'once' },
  purchasable: true,
  createdAt: '2026-11-03T10:00:00.000Z',
  updatedAt: '2026-11-03T10:00:00.000Z',
  ...overrides,
});

export const makeSubscriptionGrade = (overrides: Partial<GradeView> = {}): GradeView =>
  makeGrade({
    id: SUB_GRADE_ID,
    name: 'Monthly club',
    description: 'Every issue as it comes out.',
    display: { badge: 'Most popular', highlighted: true, position: 1, features: ['Every issue', 'Members’ letter'] },
    price: { amountMinor: 1500, currency: 'USD' },
    billing: {
      kind: 'subscription',
      braintreePlanId: 'monthly',
      billingFrequencyMonths: 1,
      addOns: [{ addOnId: 'extra-seat', name: 'Extra seat', price: { amountMinor: 200, currency: 'USD' }, maxQuantity: 3 }],
    },
    ...overrides,
  });

/** 30 days ending 2026-11-30: sales on three of them. */
export const makeFigures = (overrides: Partial<FiguresView> = {}): FiguresView => {
  const days = Array.from({ length: 30 }, (_, index) => {
    const date = `2026-11-${String(index + 1).padStart(2, '0')}`;
    const sales: Record<string, { orders: number; units: number; revenueMinor: number }> = {
      '2026-11-03': { orders: 1, units: 1, revenueMinor: 900 },
      '2026-11-17': { orders: 3, units: 4, revenueMinor: 5100 },
      '2026-11-30': { orders: 2, units: 2, revenueMinor: 2400 },
    };
    return { date, ...(sales[date] ?? { orders: 0, units: 0, revenueMinor: 0 }) };
  });
  return {
    currency: 'USD',
    days,
    totals: {
      orders: 6,
      units: 7,
      revenue: { amountMinor: 8400, currency: 'USD' },
      discounts: { amountMinor: 450, currency: 'USD' },
      refunds: { count: 2, amount: { amountMinor: 1326, currency: 'USD' } },
    },
    activeSubscriptions: 4,
    pastDueSubscriptions: 1,
    ...overrides,
  };
};

export const makeSale = (overrides: Partial<SaleView> = {}): SaleView => ({
  invoiceId: 'inv_sale_0000001',
  kind: 'order',
  customer: { name: 'Sam Buyer', email: 'sam@example.com' },
  // As the API describes a sale (sales-ledger's describe): each line with its quantity.
  description: 'Zine club, Single issue × 2',
  units: 2,
  amount: { amountMinor: 1800, currency: 'USD' },
  paidAt: '2026-11-30T09:30:00.000Z',
  ...overrides,
});

export const merchantDashboard = (overrides: Partial<MerchantDashboard> = {}): MerchantDashboard => ({
  seo: seo('Jane’s Prints · dashboard'),
  merchant: makeAccount(),
  figures: makeFigures(),
  recentSales: [
    makeSale(),
    makeSale({
      invoiceId: 'inv_sale_0000002',
      kind: 'renewal',
      customer: { name: 'Alex Reader', email: null },
      description: 'Zine club, Monthly club',
      units: 1,
      amount: { amountMinor: 1500, currency: 'USD' },
      paidAt: '2026-11-17T08:00:00.000Z',
    }),
  ],
  productCounts: { stocked: 3, unstocked: 1 },
  ...overrides,
});

export const productDashboard = (overrides: Partial<ProductDashboard> = {}): ProductDashboard => ({
  seo: seo('Zine club · Jane’s Prints'),
  merchant: makeAccount(),
  product: makeProduct(),
  grades: [makeGrade(), makeSubscriptionGrade()],
  figures: makeFigures(),
  recentSales: [makeSale()],
  ...overrides,
});

export const gradeDashboard = (overrides: Partial<GradeDashboard> = {}): GradeDashboard => ({
  seo: seo('Monthly club · Zine club'),
  merchant: makeAccount(),
  product: makeProduct(),
  grade: makeSubscriptionGrade(),
  figures: makeFigures(),
  recentSales: [makeSale({ description: 'Zine club, Monthly club', units: 1, amount: { amountMinor: 1500, currency: 'USD' } })],
  ...overrides,
});

const usd = (amountMinor: number) => ({ amountMinor, currency: 'USD' });
const addOns = [
  { id: 'extra-seat', name: 'Extra seat', price: usd(200) },
  { id: 'priority-support', name: 'Priority support', price: usd(500) },
];

/** The local gateway's demo plans (shared/payments/local-gateway.ts), and one in another currency. */
export const plans: GatewayPlans = {
  plans: [
    { id: 'monthly', name: 'Monthly', price: usd(1000), billingFrequencyMonths: 1, addOns },
    { id: 'quarterly', name: 'Quarterly', price: usd(1000), billingFrequencyMonths: 3, addOns },
    { id: 'yearly', name: 'Yearly', price: usd(1000), billingFrequencyMonths: 12, addOns },
    {
      id: 'euro-monthly',
      name: 'Euro monthly',
      price: { amountMinor: 900, currency: 'EUR' },
      billingFrequencyMonths: 1,
      addOns: [],
    },
  ],
};

/** The server's answer to a call that needs a connected payment account. */
export const connectFirst = {
  status: 409,
  body: { message: 'Connect your Braintree account first: nothing can be sold or billed before.', code: 'CONFLICT' },
} as const;

/** A 400 from the request check, as the API sends it. */
export function validationFailed(fields: { field: string; message: string }[]) {
  return {
    status: 400,
    body: {
      message: `Invalid request: ${fields.map((field) => `${field.field}: ${field.message}`).join('; ')}`,
      code: 'VALIDATION_FAILED',
      fields: fields.map((field) => ({ in: 'body', ...field })),
    },
  };
}

/** A stored image, as the upload route answers. */
export function storedImage(id: string, name = 'logo.png') {
  return {
    file: {
      id,
      purpose: 'image' as const,
      transferId: null,
      name,
      size: 68,
      type: 'image/png',
      status: 'ready' as const,
      uploadMethod: 'server' as const,
      lastModified: null,
      checksum: null,
      createdAt: '2026-11-01T10:00:00.000Z',
      readyAt: '2026-11-01T10:00:00.000Z',
    },
    url: `https://files.example/${id}.png`,
  };
}
