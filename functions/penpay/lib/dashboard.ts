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

export function figuresFrom(items: readonly StoreFigureItem[], days: readonly string[], currency: string): FiguresView {
  const byPeriod = new Map(items.map((item) => [item.period, item]));
  const series = days.map((date) => {
    const day = byPeriod.get(`day:${date}`);
    return { date, orders: day?.orders ?? 0, units: day?.units ?? 0, revenueMinor: day?.revenueMinor ?? 0 };
  });
  const total = byPeriod.get('total');
  return {
    currency,
    days: series,
    totals: {
      orders: sum(series.map((day) => day.orders)),
      units: sum(series.map((day) => day.units)),
      revenue: { amountMinor: sum(series.map((day) => day.revenueMinor)), currency },
      discounts: {
        amountMinor: sum(days.map((date) => byPeriod.get(`day:${date}`)?.discountsMinor ?? 0)),
        currency,
      },
      refunds: {
        count: sum(days.map((date) => byPeriod.get(`day:${date}`)?.refunds ?? 0)),
        amount: { amountMinor: sum(days.map((date) => byPeriod.get(`day:${date}`)?.refundsMinor ?? 0)), currency },
      },
    },
    activeSubscriptions: total?.activeSubscriptions ?? 0,
    pastDueSubscriptions: total?.pastDueSubscriptions ?? 0,
  };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

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
