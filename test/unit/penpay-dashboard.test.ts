import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { shelfKeys } from '../../functions/lib/db/entities/product-stock';
import {
  gradeScope,
  productScope,
  shopScope,
  type StoreFigureItem,
  type StoreSaleItem,
} from '../../functions/lib/db/entities/store-figures';
import type { Db } from '../../functions/lib/db/service';
import { countMyProducts, dashboardDays, readFigures, readRecentSales, RECENT_SALES } from '../../functions/penpay/lib/dashboard';
import { createTestTable } from '../support/dynamo';

let db: Db;
const NOW = new Date('2026-05-30T15:00:00.000Z');
const MERCHANT = { merchantAccountId: 'mer_dashboardmerchant00', currency: 'EUR' };
const OTHER_MERCHANT = 'mer_dashboardother00000';
const PRODUCT = 'prd_dashboardproduct000';
const GRADE = 'grd_dashboardgrade00000';

const figure = (
  scope: string,
  period: string,
  values: Partial<StoreFigureItem>,
  merchantAccountId = MERCHANT.merchantAccountId,
) => db.entities.storeFigure.put({ merchantAccountId, scope, period, ...values }).go();

const sale = (scope: string, index: number, overrides: Partial<StoreSaleItem> = {}) =>
  db.entities.storeSale
    .put({
      merchantAccountId: MERCHANT.merchantAccountId,
      scope,
      transactionId: `txn-${scope}-${index}`,
      kind: 'order',
      invoiceId: `inv-${index}`,
      customerId: `customer-${index}`,
      customerName: `Customer ${index}`,
      customerEmail: `customer${index}@example.com`,
      description: `Sale ${index}`,
      units: 1,
      amountMinor: 1_000 + index,
      currency: 'EUR',
      paidAt: new Date(Date.UTC(2026, 4, 1) + index * 3_600_000).toISOString(),
      ...overrides,
    })
    .go();

/** Counts the Query commands a call sends to the table. */
async function queriesOf<T>(call: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const send = vi.spyOn(db.client, 'send');
  try {
    const result = await call();
    return { result, queries: send.mock.calls.filter(([command]) => command instanceof QueryCommand).length };
  } finally {
    send.mockRestore();
  }
}

beforeAll(async () => {
  ({ db } = await createTestTable());
  await Promise.all([
    // The shop: three days of sales in the window (revenue net of that day's refunds), one the day
    // before it starts, and its subscriptions now.
    figure(shopScope, 'day:2026-05-01', { orders: 2, units: 3, revenueMinor: 4_500 }),
    figure(shopScope, 'day:2026-05-15', {
      orders: 1,
      units: 1,
      revenueMinor: 1_200,
      discountsMinor: 300,
      refunds: 1,
      refundsMinor: 700,
    }),
    figure(shopScope, 'day:2026-05-30', {
      orders: 4,
      units: 6,
      revenueMinor: 9_900,
      discountsMinor: 250,
      refunds: 2,
      refundsMinor: 1_001,
    }),
    figure(shopScope, 'day:2026-04-30', {
      orders: 50,
      units: 50,
      revenueMinor: 99_999,
      discountsMinor: 9_999,
      refunds: 9,
      refundsMinor: 9_999,
    }),
    figure(shopScope, 'total', { activeSubscriptions: 7, pastDueSubscriptions: 2 }),
    // One of its products, and one grade of it.
    // Their part of the shop's discounts and refunds (a refund of an amount shared over the lines).
    figure(productScope(PRODUCT), 'day:2026-05-15', {
      orders: 1,
      units: 1,
      revenueMinor: 1_200,
      discountsMinor: 300,
      refunds: 1,
      refundsMinor: 700,
    }),
    figure(productScope(PRODUCT), 'day:2026-05-30', {
      orders: 3,
      units: 5,
      revenueMinor: 8_000,
      discountsMinor: 150,
      refunds: 1,
      refundsMinor: 626,
    }),
    figure(productScope(PRODUCT), 'total', { activeSubscriptions: 3, pastDueSubscriptions: 0 }),
    figure(gradeScope(GRADE), 'day:2026-05-30', {
      orders: 2,
      units: 2,
      revenueMinor: 3_000,
      discountsMinor: 150,
      refunds: 1,
      refundsMinor: 626,
    }),
    // Another shop's figures under the same scope names.
    figure(shopScope, 'day:2026-05-30', { orders: 100, units: 100, revenueMinor: 100_000 }, OTHER_MERCHANT),
    figure(shopScope, 'total', { activeSubscriptions: 40, pastDueSubscriptions: 4 }, OTHER_MERCHANT),
  ]);
});

describe('the 30 days of a dashboard', () => {
  it('are today and the 29 days before it, oldest first, in UTC', () => {
    // Act
    const days = dashboardDays(new Date('2026-03-01T23:30:00.000Z'));

    // Assess
    expect(days).toHaveLength(30);
    expect(days[0]).toBe('2026-01-31');
    expect(days.at(-1)).toBe('2026-03-01');
    expect(new Set(days).size).toBe(30);
  });
});

describe("a scope's figures", () => {
  it("fill the shop's 30 days with zeros where nothing sold, sum them, and read the subscriptions now: one Query", async () => {
    // Act
    const { result: figures, queries } = await queriesOf(() => readFigures(db, MERCHANT, shopScope, NOW));

    // Assess
    expect(queries).toBe(1);
    expect(figures.currency).toBe('EUR');
    expect(figures.days).toHaveLength(30);
    expect(figures.days[0]).toEqual({ date: '2026-05-01', orders: 2, units: 3, revenueMinor: 4_500 });
    expect(figures.days[14]).toEqual({ date: '2026-05-15', orders: 1, units: 1, revenueMinor: 1_200 });
    expect(figures.days[29]).toEqual({ date: '2026-05-30', orders: 4, units: 6, revenueMinor: 9_900 });
    expect(figures.days.filter((day) => day.orders === 0)).toHaveLength(27);
    expect(figures.days[1]).toEqual({ date: '2026-05-02', orders: 0, units: 0, revenueMinor: 0 });
    expect(figures.totals).toEqual({
      orders: 7,
      units: 10,
      revenue: { amountMinor: 15_600, currency: 'EUR' },
      // Days before discounts were counted have none; the day before the window is left out.
      discounts: { amountMinor: 550, currency: 'EUR' },
      refunds: { count: 3, amount: { amountMinor: 1_701, currency: 'EUR' } },
    });
    expect(figures).toMatchObject({ activeSubscriptions: 7, pastDueSubscriptions: 2 });
  });

  it("keep a product's and a grade's apart from the shop's and from each other", async () => {
    // Act
    const product = await readFigures(db, MERCHANT, productScope(PRODUCT), NOW);
    const grade = await readFigures(db, MERCHANT, gradeScope(GRADE), NOW);

    // Assess
    expect(product.totals).toEqual({
      orders: 4,
      units: 6,
      revenue: { amountMinor: 9_200, currency: 'EUR' },
      discounts: { amountMinor: 450, currency: 'EUR' },
      refunds: { count: 2, amount: { amountMinor: 1_326, currency: 'EUR' } },
    });
    expect(product.days[29]).toMatchObject({ orders: 3, units: 5, revenueMinor: 8_000 });
    expect(product).toMatchObject({ activeSubscriptions: 3, pastDueSubscriptions: 0 });
    expect(grade.totals).toEqual({
      orders: 2,
      units: 2,
      revenue: { amountMinor: 3_000, currency: 'EUR' },
      discounts: { amountMinor: 150, currency: 'EUR' },
      refunds: { count: 1, amount: { amountMinor: 626, currency: 'EUR' } },
    });
    expect(grade.days.filter((day) => day.orders > 0).map((day) => day.date)).toEqual(['2026-05-30']);
    // No 'total' item yet: no subscriptions.
    expect(grade).toMatchObject({ activeSubscriptions: 0, pastDueSubscriptions: 0 });
  });

  it('are all zeros for a scope with no sales yet', async () => {
    // Act
    const figures = await readFigures(db, MERCHANT, gradeScope('grd_nosalesyet0000000000'), NOW);

    // Assess
    expect(figures.days.every((day) => day.orders === 0 && day.units === 0 && day.revenueMinor === 0)).toBe(true);
    expect(figures.totals).toEqual({
      orders: 0,
      units: 0,
      revenue: { amountMinor: 0, currency: 'EUR' },
      discounts: { amountMinor: 0, currency: 'EUR' },
      refunds: { count: 0, amount: { amountMinor: 0, currency: 'EUR' } },
    });
  });
});

describe("a scope's latest sales", () => {
  beforeAll(async () => {
    await Promise.all(Array.from({ length: 12 }, (_, index) => sale(shopScope, index)));
    await sale(productScope(PRODUCT), 1, {
      kind: 'renewal',
      invoiceId: undefined,
      subscriptionId: 'sub-renewed',
      customerEmail: undefined,
      units: 2,
    });
  });

  it('are the 10 newest, newest first, with who bought, what and for how much: one Query', async () => {
    // Act
    const { result: sales, queries } = await queriesOf(() => readRecentSales(db, MERCHANT.merchantAccountId, shopScope));

    // Assess
    expect(queries).toBe(1);
    expect(sales).toHaveLength(RECENT_SALES);
    expect(sales.map((entry) => entry.invoiceId)).toEqual(Array.from({ length: 10 }, (_, index) => `inv-${11 - index}`));
    expect(sales[0]).toEqual({
      invoiceId: 'inv-11',
      kind: 'order',
      customer: { name: 'Customer 11', email: 'customer11@example.com' },
      description: 'Sale 11',
      units: 1,
      amount: { amountMinor: 1_011, currency: 'EUR' },
      paidAt: new Date(Date.UTC(2026, 4, 1) + 11 * 3_600_000).toISOString(),
    });
  });

  it('name a renewal by its subscription, and a customer without an email as such', async () => {
    // Act
    const sales = await readRecentSales(db, MERCHANT.merchantAccountId, productScope(PRODUCT));

    // Assess
    expect(sales).toEqual([
      expect.objectContaining({
        invoiceId: 'sub-renewed',
        kind: 'renewal',
        units: 2,
        customer: { name: 'Customer 1', email: null },
      }),
    ]);
  });
});

describe("a merchant's product counts", () => {
  it("count the merchant's stocked and unstocked products only", async () => {
    // Prepare
    const product = (merchantAccountId: string, index: number, stocked: boolean) =>
      db.entities.productStock
        .create({
          productStockId: `prd_count${String(index).padStart(15, '0')}`,
          merchantAccountId,
          title: `Product ${index}`,
          images: [],
          display: { featured: false, position: 0 },
          visibility: 'public',
          stocked,
          ...shelfKeys({ stocked, visibility: 'public', position: 0 }),
          currency: 'EUR',
          createdAt: NOW.toISOString(),
          updatedAt: NOW.toISOString(),
        })
        .go();
    await Promise.all([
      ...Array.from({ length: 5 }, (_, index) => product(MERCHANT.merchantAccountId, index, index < 3)),
      product(OTHER_MERCHANT, 99, true),
    ]);

    // Act
    const counts = await countMyProducts(db, MERCHANT.merchantAccountId);
    const none = await countMyProducts(db, 'mer_noproductsatall00000');

    // Assess
    expect(counts).toEqual({ stocked: 3, unstocked: 2 });
    expect(none).toEqual({ stocked: 0, unstocked: 0 });
  });
});
