/**
 * The shop's sales ledger: every charge a shop takes (a cart's sale, a subscription's first
 * cycle, a renewal) becomes a sale row and a day's figures for the shop and for each product and
 * grade it touches, which is what the dashboards read (one Query per scope, whatever the number
 * of orders behind them).
 *
 * A charge is recorded once however many times it is told: the checkout and a webhook may both
 * see a subscription's first charge. The shop's sale row is keyed by the charge (its time and
 * the gateway's transaction id) and created with a not-exists condition in the same transaction
 * as the figures' ADDs, so a second recording changes nothing at all.
 */
import { lostRace, retryContendedWrite } from '../../lib/contended-writes';
import { gradeScope, productScope, shopScope, type StoreSaleItem } from '../../lib/db/entities/store-figures';
import { failedConditions } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';

export interface StoreCharge {
  merchantAccountId: string;
  transactionId: string;
  /** 'order': a cart's sale or a subscription's first cycle; 'renewal': a later cycle; 'add-on': an add-on's prorated charge. */
  kind: 'order' | 'renewal' | 'add-on';
  /**
   * The scopes (shop, products, grades) in which this charge is the one that counts the order
   * (orderScopesOf): a cart paid in several charges is one order. Absent: it counts none.
   */
  opensOrderIn?: ReadonlySet<string>;
  invoiceId?: string;
  subscriptionId?: string;
  customer: { id: string; name: string; email: string | null };
  /**
   * The gateway's createdAt of the transaction, exactly as it gave it: with the transaction id it
   * keys the sale, so every recorder of one charge must pass the same value.
   */
  paidAt: string;
  currency: string;
  /**
   * What the charge paid for; `amountMinor` is the line's whole amount (all its units) as charged,
   * after any discount code, and `discountMinor` what the code took off it.
   */
  lines: {
    productStockId: string;
    productStockGradeId: string;
    description: string;
    units: number;
    amountMinor: number;
    discountMinor?: number;
  }[];
}

type ChargeLine = StoreCharge['lines'][number];

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** "Mug — Large × 2, Poster — A2": a sale's lines on one row of a dashboard. */
function describe(lines: readonly ChargeLine[]): string {
  return lines.map((line) => (line.units > 1 ? `${line.description} × ${line.units}` : line.description)).join(', ');
}

function groupBy(lines: readonly ChargeLine[], keyOf: (line: ChargeLine) => string): Map<string, ChargeLine[]> {
  const groups = new Map<string, ChargeLine[]>();
  for (const line of lines) groups.set(keyOf(line), [...(groups.get(keyOf(line)) ?? []), line]);
  return groups;
}

/** The UTC day a charge counts on, as the dashboards read them. */
/** The lines of an invoice as they decide where its order is counted. */
type OrderLine = { productId: string; priceId: string; billing?: 'once' | 'subscription' | undefined };

/**
 * Where a charge of a cart's invoice counts the order. A cart is paid in several charges (one
 * sale for its one-time lines, then each subscription's first cycle, in line order), possibly
 * over several attempts, and recorded by whoever sees each charge first (the checkout, or the
 * shop's webhook). So the order is counted, in each scope (the shop, a product, a grade), by the
 * first of those charges in that order that touches the scope: the same answer from the invoice
 * alone, whoever asks and whenever. `charge` is 'sale', or the subscription line's number (1-based).
 */
export function orderScopesOf(lines: readonly OrderLine[], charge: 'sale' | number): Set<string> {
  const once = lines.filter((line) => (line.billing ?? 'once') === 'once');
  const groups: { key: 'sale' | number; lines: OrderLine[] }[] = [
    ...(once.length ? [{ key: 'sale' as const, lines: once }] : []),
    ...lines.filter((line) => line.billing === 'subscription').map((line, index) => ({ key: index + 1, lines: [line] })),
  ];
  const seen = new Set<string>();
  for (const group of groups) {
    const scopes = new Set([
      shopScope,
      ...group.lines.flatMap((line) => [productScope(line.productId), gradeScope(line.priceId)]),
    ]);
    const opened = new Set([...scopes].filter((scope) => !seen.has(scope)));
    if (group.key === charge) return opened;
    for (const scope of scopes) seen.add(scope);
  }
  return new Set();
}

export const figureDayOf = (paidAt: string) => `day:${new Date(paidAt).toISOString().slice(0, 10)}`;

/**
 * Records a charge in the ledger, in one transaction. True when this call recorded it; false
 * when it was recorded already (nothing changed).
 */
export async function recordStoreCharge(db: Db, charge: StoreCharge): Promise<boolean> {
  if (charge.lines.length === 0) throw new Error(`Charge ${charge.transactionId} has no lines to record`);
  const scopes: { scope: string; lines: ChargeLine[] }[] = [
    { scope: shopScope, lines: charge.lines },
    ...[...groupBy(charge.lines, (line) => line.productStockId)].map(([id, lines]) => ({ scope: productScope(id), lines })),
    ...[...groupBy(charge.lines, (line) => line.productStockGradeId)].map(([id, lines]) => ({ scope: gradeScope(id), lines })),
  ];
  const customerName = charge.customer.name.trim() || charge.customer.email || 'A customer';
  const rows: StoreSaleItem[] = scopes.map(({ scope, lines }) => ({
    merchantAccountId: charge.merchantAccountId,
    scope,
    transactionId: charge.transactionId,
    kind: charge.kind,
    ...(charge.invoiceId ? { invoiceId: charge.invoiceId } : {}),
    ...(charge.subscriptionId ? { subscriptionId: charge.subscriptionId } : {}),
    customerId: charge.customer.id,
    customerName,
    ...(charge.customer.email ? { customerEmail: charge.customer.email } : {}),
    description: describe(lines),
    units: sum(lines.map((line) => line.units)),
    amountMinor: sum(lines.map((line) => line.amountMinor)),
    discountMinor: sum(lines.map((line) => line.discountMinor ?? 0)),
    currency: charge.currency,
    paidAt: charge.paidAt,
  }));
  const period = figureDayOf(charge.paidAt);
  // Days whose figures collide with another charge's (two sales of one shop at once) are retried
  // under the one policy (retryContendedWrite): the transaction is all or nothing and writes our
  // own records only (the charge was taken before), so a retry cannot count, nor charge, twice.
  // Given up, it stays a server error and not TooBusy: the customer was charged already, so
  // TooBusy's "nothing changed: please try again" would be untrue.
  const giveUp = (cause: unknown) =>
    new Error(`Charge ${charge.transactionId} of ${charge.merchantAccountId} could not be recorded`, { cause });
  return retryContendedWrite({ what: 'recording sales', giveUp }, async () => {
    const result = await db.transaction
      .write(({ storeSale, storeFigure }) => [
        // First, and the only condition: the shop's row says whether this charge is recorded already.
        ...rows.map((row, index) => (index === 0 ? storeSale.create(row).commit() : storeSale.put(row).commit())),
        // `update` and not `upsert`: a first ADD makes the day's item, and the item's other figures stay as they are.
        ...rows.map((row) =>
          storeFigure
            .update({ merchantAccountId: charge.merchantAccountId, scope: row.scope, period })
            .add({
              orders: charge.opensOrderIn?.has(row.scope) ? 1 : 0,
              units: row.units,
              revenueMinor: row.amountMinor,
              discountsMinor: row.discountMinor ?? 0,
            })
            .commit(),
        ),
      ])
      .go();
    if (!result.canceled) return true;
    if (failedConditions(result).includes(0)) return false;
    return lostRace(result);
  });
}
