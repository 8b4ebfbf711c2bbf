/**
 * What a merchant's dashboards show, from figures precomputed as each payment is recorded
 * (functions/lib/db/entities/store-figures.ts): a scope's last 30 days and its subscriptions now
 * are one Query, its latest sales another, whatever the number of orders behind them.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { SHARE_IMAGE_URL } from '../../../shared/constants';
import type { Seo } from '../../../shared/schemas/common';
import type { FiguresView, SaleView } from '../../../shared/schemas/merchant';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { StoreFigureItem, StoreSaleItem } from '../../lib/db/entities/store-figures';
import type { Db } from '../../lib/db/service';

/** Days on a dashboard's chart, today included. */
export const DASHBOARD_DAYS = 30;
/** Sales in a dashboard's "latest sales". */
export const RECENT_SALES = 10;
const DAY_MS = 86_400_000;

/** A UTC calendar day, as the figures are kept by. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The 30 days ending today, oldest first. */
export function dashboardDays(now: Date): string[] {
  return Array.from({ length: DASHBOARD_DAYS }, (_, index) =>
    dayOf(new Date(now.getTime() - (DASHBOARD_DAYS - 1 - index) * DAY_MS)),
  );
}

/**
 * A scope's figures: every day of the last 30 (zeros for a day without sales, which has no
 * item), their totals, and the subscriptions active and past due now (the scope's 'total' item,
 * which sorts after every day). One Query.
 */
export async function readFigures(
  db: Db,
  merchant: Pick<MerchantAccountItem, 'merchantAccountId' | 'currency'>,
  scope: string,
  now: Date,
): Promise<FiguresView> {
  const days = dashboardDays(now);
  return figuresFrom(await readFigureItems(db, merchant.merchantAccountId, scope, days), days, merchant.currency);
}

/** A scope's figure items over `days` and its 'total': what readFigures sums, for a caller that reads the shop alongside. */
export async function readFigureItems(
  db: Db,
  merchantAccountId: string,
  scope: string,
  days: readonly string[],
): Promise<StoreFigureItem[]> {
  const { data } = await db.entities.storeFigure.query
    .byScope({ merchantAccountId, scope })
    .between({ period: `day:${days[0]}` }, { period: 'total' })
    .go({ pages: 'all' });
  return data;
}

/**
 * The figures of a dashboard from its scope's items: one pass over the 30 days. Discounts and
 * refunds are kept on the same day items as revenue (revenue already net of refunds), so they
 * cost the read nothing: no other item, no other Query.
 */
export function figuresFrom(items: readonly StoreFigureItem[], days: readonly string[], currency: string): FiguresView {
  const byPeriod = new Map(items.map((item) => [item.period, item]));
  const totals = { orders: 0, units: 0, revenueMinor: 0, discountsMinor: 0, refunds: 0, refundsMinor: 0 };
  const series = days.map((date) => {
    const day = byPeriod.get(`day:${date}`);
    const figures = { date, orders: day?.orders ?? 0, units: day?.units ?? 0, revenueMinor: day?.revenueMinor ?? 0 };
    totals.orders += figures.orders;
    totals.units += figures.units;
    totals.revenueMinor += figures.revenueMinor;
    totals.discountsMinor += day?.discountsMinor ?? 0;
    totals.refunds += day?.refunds ?? 0;
    totals.refundsMinor += day?.refundsMinor ?? 0;
    return figures;
  });
  const total = byPeriod.get('total');
  return {
    currency,
    days: series,
    totals: {
      orders: totals.orders,
      units: totals.units,
      revenue: { amountMinor: totals.revenueMinor, currency },
      discounts: { amountMinor: totals.discountsMinor, currency },
      refunds: { count: totals.refunds, amount: { amountMinor: totals.refundsMinor, currency } },
    },
    activeSubscriptions: total?.activeSubscriptions ?? 0,
    pastDueSubscriptions: total?.pastDueSubscriptions ?? 0,
  };
}

/** A scope's latest sales, newest first. One Query. */
export async function readRecentSales(db: Db, merchantAccountId: string, scope: string): Promise<SaleView[]> {
  const { data } = await db.entities.storeSale.query
    .byScope({ merchantAccountId, scope })
    .go({ order: 'desc', limit: RECENT_SALES });
  return data.map(toSaleView);
}

export function toSaleView(sale: StoreSaleItem): SaleView {
  return {
    // A renewal has no invoice of ours: its subscription names it, else the gateway's charge.
    invoiceId: sale.invoiceId ?? sale.subscriptionId ?? sale.transactionId,
    kind: sale.kind,
    customer: { name: sale.customerName, email: sale.customerEmail ?? null },
    description: sale.description,
    units: sale.units,
    amount: { amountMinor: sale.amountMinor, currency: sale.currency },
    paidAt: sale.paidAt,
  };
}

/**
 * How many of the merchant's products are stocked and unstocked: a count of each half of their
 * gsi1 partition (DynamoDB counts on its side and answers no items), paged past 1 MB.
 */
export async function countMyProducts(db: Db, merchantAccountId: string): Promise<{ stocked: number; unstocked: number }> {
  const count = async (stockState: 'stocked' | 'unstocked') => {
    const params = db.entities.productStock.query.byMerchant({ merchantAccountId, stockState }).params() as Record<
      string,
      unknown
    >;
    let total = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db.client.send(
        new QueryCommand({
          ...params,
          Select: 'COUNT',
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        } as QueryCommandInput),
      );
      total += page.Count ?? 0;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return total;
  };
  const [stocked, unstocked] = await Promise.all([count('stocked'), count('unstocked')]);
  return { stocked, unstocked };
}

export function dashboardSeo(title: string, description: string): Seo {
  // The merchant's pages are private: nothing here is meant for search engines or shares.
  return { title, description, keywords: [], imageUrl: SHARE_IMAGE_URL };
}
