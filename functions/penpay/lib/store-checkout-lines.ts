/**
 * A shop's cart invoice as a payment reads it: its lines with their grades as they are now, and
 * the state an attempt carries from the gateway to the records. Everything here is read and
 * checked before the gateway is called, so a line that stopped being sold, changed billing or
 * changed price is refused with nothing charged. The types the charges (store-charges.ts) and the
 * records (store-order-records.ts) share live here, at the bottom of the imports, so the store
 * checkout's modules depend one way: lines, then charges, then records, then store-checkout.ts.
 */
import { formatMoney } from '../../../shared/payments/money';
import type { InvoiceItem } from '../../lib/db/entities/invoice';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { ProductStockItem } from '../../lib/db/entities/product-stock';
import type { ProductStockGradeItem } from '../../lib/db/entities/product-stock-grade';
import { getBatch } from '../../lib/db/batches';
import type { Db } from '../../lib/db/service';
import { requireUser, verifiedEmailOfUser } from '../../lib/db/users';
import { Conflict } from '../../lib/errors';
import type { GatewaySubscription, GatewayTransaction, PaymentGateway, PaymentMethodSummary } from '../../lib/payments/gateway';
import { type InvoiceClaim, InvoiceNotFound, readOwnInvoice } from '../../lib/payments/invoices';
import { readCatalog } from './cart';
import { isPurchasable } from './catalog';
import { shopGateway } from './shop-gateway';

/** The gateway's id of an invoice's n-th subscription (1-based): Braintree takes letters, digits, - and _, at most 36. */
export const storeSubscriptionIdFor = (invoiceId: string, n: number) => `s_${invoiceId}_${n}`.slice(0, 36);

type InvoiceLine = InvoiceItem['lines'][number];
export type Card = PaymentMethodSummary;

/** An invoice of a shop's cart, or 404: anyone else's, and the Pro plan's, are not there for this route. */
export async function readStoreInvoice(db: Db, invoiceId: string, customerId: string): Promise<InvoiceItem> {
  const invoice = await readOwnInvoice(db, invoiceId, customerId);
  if (invoice.purpose !== 'order') throw new InvoiceNotFound();
  return invoice;
}

export interface StoreCheckoutRequest {
  invoiceId: string;
  customerId: string;
  nonce: string;
  deviceData?: string | undefined;
  now: () => Date;
}

/**
 * One line of the invoice with the grade and product it names, as they are now: both there for a
 * line still to charge (it was checked); either may be gone from a line paid by an earlier attempt.
 */
export interface CheckedLine {
  line: InvoiceLine;
  grade: ProductStockGradeItem | null;
  product: ProductStockItem | null;
}

/** Everything a payment needs, read and checked before the gateway is called. */
export interface Checkout {
  invoice: InvoiceItem;
  claim: InvoiceClaim;
  merchant: MerchantAccountItem;
  gateway: PaymentGateway;
  customer: { id: string; name: string; email: string | null; gatewayEmail: string };
  onceLines: CheckedLine[];
  /** The subscription lines with their gateway ids, in line order. */
  subscriptionLines: (CheckedLine & { subscriptionId: string })[];
  /** Subscriptions an earlier, partly paid attempt stored already. */
  stored: Set<string>;
}

/** What this attempt found paid at the gateway or charged itself, and not yet recorded by it. */
export interface Progress {
  card: Card | null;
  sale: GatewayTransaction | null;
  subscriptions: Map<string, GatewaySubscription>;
  /** Transactions this attempt's own calls made: told of whoever records them first (a webhook may). */
  chargedNow: Set<string>;
}

/**
 * Reads the shop, its gateway, the customer and the invoice's grades, and checks every line
 * still to charge against its grade now: a grade that stopped being sold, changed billing or
 * changed price is a 409 naming each change, before anything is charged.
 */
export async function prepare(db: Db, claim: InvoiceClaim): Promise<Checkout> {
  const { invoice } = claim;
  const subscriptionLineIds = invoice.lines
    .filter((line) => line.billing === 'subscription')
    .map((_, index) => storeSubscriptionIdFor(invoice.invoiceId, index + 1));
  const [{ data: merchant }, user, catalog, stored] = await Promise.all([
    db.entities.merchantAccount.get({ merchantAccountId: invoice.sellerId }).go({ consistent: true }),
    requireUser(db, { userId: invoice.customerId }),
    readCatalog(
      db,
      invoice.lines.map((line) => line.priceId),
      invoice.lines.map((line) => line.productId),
      true,
    ),
    storedSubscriptions(db, subscriptionLineIds),
  ]);
  if (!merchant || merchant.closedAt !== undefined) throw new Conflict('This shop is closed: nothing was charged.');
  if (!merchant.gateway) throw new Conflict(`${merchant.shopName} does not take payments right now: nothing was charged.`);

  const saleDone = invoice.transactionId !== undefined;
  const checked: CheckedLine[] = [];
  const changes: string[] = [];
  let subscriptionIndex = 0;
  const subscriptionLines: Checkout['subscriptionLines'] = [];
  for (const line of invoice.lines) {
    const billing = line.billing ?? 'once';
    const subscriptionId = billing === 'subscription' ? subscriptionLineIds[subscriptionIndex++] : undefined;
    // What is paid already is not charged again, whatever its grade became since.
    const paid = billing === 'once' ? saleDone : subscriptionId !== undefined && stored.has(subscriptionId);
    const grade = catalog.grades.get(line.priceId) ?? null;
    const product = catalog.products.get(line.productId) ?? null;
    if (!paid) {
      if (!grade || !product || grade.productStockId !== product.productStockId || !isPurchasable(merchant, product, grade)) {
        changes.push(`${line.description} is no longer sold`);
      } else if ((grade.plan ? 'subscription' : 'once') !== billing) {
        changes.push(`${line.description} is now sold ${grade.plan ? 'by subscription' : 'once, not by subscription'}`);
      } else if (grade.priceMinor !== line.amountMinor) {
        const now = formatMoney({ amountMinor: grade.priceMinor, currency: grade.currency });
        const before = formatMoney({ amountMinor: line.amountMinor, currency: invoice.currency });
        changes.push(`${line.description} now costs ${now} (it was ${before})`);
      }
    }
    const entry = { line, grade, product };
    checked.push(entry);
    if (subscriptionId !== undefined) subscriptionLines.push({ ...entry, subscriptionId });
  }
  if (changes.length > 0) {
    const charged = saleDone || stored.size > 0 ? 'nothing more was charged' : 'nothing was charged';
    throw new Conflict(`${changes.join('; ')}. Review your cart: ${charged}.`);
  }
  return {
    invoice,
    claim,
    merchant,
    gateway: await shopGateway(db, merchant),
    customer: {
      id: user.userId,
      name: user.name?.trim() || user.username,
      email: verifiedEmailOfUser(user),
      gatewayEmail: user.email ?? '',
    },
    onceLines: checked.filter(({ line }) => (line.billing ?? 'once') === 'once'),
    subscriptionLines,
    stored,
  };
}

async function storedSubscriptions(db: Db, subscriptionIds: readonly string[]): Promise<Set<string>> {
  if (subscriptionIds.length === 0) return new Set();
  const found = await getBatch({
    keys: subscriptionIds.map((subscriptionId) => ({ subscriptionId })),
    send: async (keys) => {
      const { data, unprocessed } = await db.entities.subscription.get(keys).go({ consistent: true });
      return { data, unprocessed: unprocessed.map((key) => ({ subscriptionId: key.subscriptionId })) };
    },
    what: 'subscriptions',
  });
  return new Set(found.map((subscription) => subscription.subscriptionId));
}

export const quantified = (line: InvoiceLine) =>
  line.quantity > 1 ? `${line.description} × ${line.quantity}` : line.description;

/** The invoice's lines that are paid (by any attempt) and those still to pay. */
export function splitLines(checkout: Checkout, progress: Progress): { paid: CheckedLine[]; pending: CheckedLine[] } {
  const saleDone = progress.sale !== null || checkout.invoice.transactionId !== undefined;
  const paid: CheckedLine[] = saleDone ? [...checkout.onceLines] : [];
  const pending: CheckedLine[] = saleDone ? [] : [...checkout.onceLines];
  for (const line of checkout.subscriptionLines) {
    const started = checkout.stored.has(line.subscriptionId) || progress.subscriptions.has(line.subscriptionId);
    (started ? paid : pending).push(line);
  }
  return { paid, pending };
}
