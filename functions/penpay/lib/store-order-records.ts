/**
 * Recording a store payment, whole or in part. When a charge is declined after others were paid
 * (store-charges.ts), what was paid is kept and said, since nothing at the gateway can be undone:
 * - everything paid so far is recorded as paid (the subscriptions stored, so their owner sees
 *   and can cancel them; the order with the lines paid; the sales ledger; the payments; a
 *   receipt), and the paid lines leave the cart;
 * - the invoice stays payable, with the decline on it and a message naming what is paid and
 *   what is not; the cart's remaining lines point at this same invoice, so the cart page keeps
 *   answering it instead of a new one that would charge the paid lines again.
 */
import { formatMoney, fromDecimalAmount } from '../../../shared/payments/money';
import type { StoreOrderItem } from '../../lib/db/entities/store-order';
import type { SubscriptionItem } from '../../lib/db/entities/subscription';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { logger } from '../../lib/logger';
import type { GatewaySubscription } from '../../lib/payments/gateway';
import { paidPointerWrites } from '../../lib/payments/invoices';
import { fillSlot } from '../../lib/payments/subscription-slots';
import { recordPayments, stateFromGateway } from '../../lib/payments/subscription-sync';
import { CART_POINTER, cartInvoiceKey, chargedLinesOf, readCart } from './cart';
import { orderScopesOf, recordStoreCharge, type StoreCharge } from './sales-ledger';
import { firstCharge } from './store-charges';
import {
  type Card,
  type CheckedLine,
  type Checkout,
  type Progress,
  quantified,
  readStoreInvoice,
  splitLines,
} from './store-checkout-lines';
import { deliveredFileNames } from './digital-files';
import { type OrderMailLine, tellOrderPaid } from './store-mail';
import { countSubscriptionChange } from '../../lib/payments/subscription-counts';

/** The card a gateway subscription charges, of those this invoice knows. */
function cardOf(checkout: Checkout, progress: Progress, token: string): Card {
  const known = [progress.card, checkout.invoice.paymentMethod].filter((card): card is Card => card != null);
  const card = known.find((candidate) => candidate.token === token) ?? known[0];
  if (!card) throw new Error(`No card is known for invoice ${checkout.invoice.invoiceId}`);
  return card;
}

/** The stored copy of a subscription this attempt started (or found started). */
function subscriptionItem(
  checkout: Checkout,
  progress: Progress,
  line: Checkout['subscriptionLines'][number],
  gateway: GatewaySubscription,
  now: Date,
): SubscriptionItem {
  const at = now.toISOString();
  const { set } = stateFromGateway(gateway, undefined, now);
  return {
    ...set,
    subscriptionId: line.subscriptionId,
    customerId: checkout.invoice.customerId,
    sellerId: checkout.merchant.merchantAccountId,
    productId: line.line.productId,
    priceId: line.line.priceId,
    gatewayPlanId: gateway.planId,
    invoiceId: checkout.invoice.invoiceId,
    billingFrequencyMonths: gateway.billingFrequency || line.grade?.plan?.billingFrequencyMonths || 1,
    paymentMethod: cardOf(checkout, progress, gateway.paymentMethodToken),
    addOns: [],
    createdAt: at,
    updatedAt: at,
  };
}

/** The order as its customer lists it: the lines paid so far and what they cost. */
function orderItem(checkout: Checkout, paid: readonly CheckedLine[], card: Card | null, now: Date): StoreOrderItem {
  const { invoice, merchant } = checkout;
  return {
    invoiceId: invoice.invoiceId,
    customerId: invoice.customerId,
    merchantAccountId: merchant.merchantAccountId,
    shopName: merchant.shopName,
    handle: merchant.handle,
    lines: paid.map(({ line }) => ({
      productStockId: line.productId,
      productStockGradeId: line.priceId,
      description: line.description,
      billing: line.billing ?? 'once',
      quantity: line.quantity,
      unitPriceMinor: line.amountMinor,
      ...(line.discountMinor ? { discountMinor: line.discountMinor } : {}),
    })),
    totalMinor: paid.reduce((sum, { line }) => sum + line.amountMinor * line.quantity - (line.discountMinor ?? 0), 0),
    ...(invoice.discount ? { discountCode: invoice.discount.code } : {}),
    currency: invoice.currency,
    ...(card ? { card: { cardType: card.cardType, last4: card.last4 } } : {}),
    paidAt: now.toISOString(),
  };
}

type SubscriptionStart = { line: Checkout['subscriptionLines'][number]; item: SubscriptionItem; gateway: GatewaySubscription };

/** The subscriptions this attempt started or found, not stored yet, as they will be stored. */
function newSubscriptions(checkout: Checkout, progress: Progress, now: Date): SubscriptionStart[] {
  return checkout.subscriptionLines.flatMap((line) => {
    const gateway = progress.subscriptions.get(line.subscriptionId);
    if (!gateway || checkout.stored.has(line.subscriptionId)) return [];
    return [{ line, gateway, item: subscriptionItem(checkout, progress, line, gateway, now) }];
  });
}

/**
 * The whole invoice is paid: in one transaction the invoice (only over this attempt's claim),
 * its new subscriptions, the order, and the cart's open-invoice pointer and bought lines; then
 * the ledger, the payments, the counts and the telling, none of which can undo the order.
 */
export async function recordPaid(db: Db, checkout: Checkout, progress: Progress, now: Date): Promise<void> {
  const { invoice, claim, merchant } = checkout;
  const at = now.toISOString();
  const started = newSubscriptions(checkout, progress, now);
  const card = progress.card ?? invoice.paymentMethod ?? null;
  const all: CheckedLine[] = [...checkout.onceLines, ...checkout.subscriptionLines];
  const boughtGrades = new Set(invoice.lines.map((line) => line.priceId));
  const cart = (await readCart(db, invoice.customerId, merchant.merchantAccountId)).filter((item) =>
    boughtGrades.has(item.productStockGradeId),
  );
  const transactionId = progress.sale?.id ?? invoice.transactionId;
  const result = await db.transaction
    .write(({ invoice: invoices, subscription, storeOrder, openInvoice, cartItem }) => [
      invoices
        .patch({ invoiceId: invoice.invoiceId })
        .set({
          status: 'paid',
          paidAt: at,
          subscriptionIds: checkout.subscriptionLines.map((line) => line.subscriptionId),
          ...(transactionId ? { transactionId } : {}),
          updatedAt: at,
        })
        .remove(['payingUntil', 'inDoubt'])
        .where((attributes, { eq }) => `${eq(attributes.status, 'paying')} AND ${eq(attributes.attempt, claim.attempt)}`)
        .commit(),
      ...started.map(({ item }) => subscription.create(item).commit()),
      storeOrder.put(orderItem(checkout, all, card, now)).commit(),
      ...paidPointerWrites(openInvoice, invoice),
      ...cart.map((item) =>
        cartItem
          .delete({ customerId: item.customerId, merchantAccountId: item.merchantAccountId, cartItemId: item.cartItemId })
          .commit(),
      ),
    ])
    .go();
  if (result.canceled) {
    // Our claim lapsed and a later attempt finished the payment meanwhile: it recorded and told everything.
    const settled = await readStoreInvoice(db, invoice.invoiceId, invoice.customerId);
    if (settled.status === 'paid') return;
    throw new Error(`Invoice ${invoice.invoiceId} was charged but could not be marked paid`);
  }
  await afterPayment(db, checkout, progress, started, now);
}

/**
 * Part of the invoice is paid and the rest was declined (or cut off): the paid subscriptions are
 * stored, the order holds the paid lines, the paid lines leave the cart, and the cart's remaining
 * lines point at this invoice; the invoice itself stays payable (the caller records the decline).
 */
export async function recordPart(db: Db, checkout: Checkout, progress: Progress, now: Date): Promise<void> {
  const { invoice, merchant } = checkout;
  const started = newSubscriptions(checkout, progress, now);
  const { paid, pending } = splitLines(checkout, progress);
  const paidGrades = new Set(paid.map(({ line }) => line.priceId));
  const cart = (await readCart(db, invoice.customerId, merchant.merchantAccountId)).filter((item) =>
    paidGrades.has(item.productStockGradeId),
  );
  const result = await db.transaction
    .write(({ subscription, storeOrder, openInvoice, cartItem }) => [
      ...started.map(({ item }) => subscription.create(item).commit()),
      storeOrder.put(orderItem(checkout, paid, progress.card ?? invoice.paymentMethod ?? null, now)).commit(),
      ...(pending.length > 0
        ? [
            openInvoice
              .put({
                customerId: invoice.customerId,
                sellerId: invoice.sellerId,
                priceId: invoice.openAs ?? CART_POINTER,
                invoiceId: invoice.invoiceId,
                contentKey: cartInvoiceKey(chargedLinesOf(pending.map(({ line }) => line)), invoice.discount?.codeKey),
              })
              .commit(),
          ]
        : []),
      ...cart.map((item) =>
        cartItem
          .delete({ customerId: item.customerId, merchantAccountId: item.merchantAccountId, cartItemId: item.cartItemId })
          .commit(),
      ),
    ])
    .go();
  if (result.canceled) throw new Error(`The paid part of invoice ${invoice.invoiceId} could not be recorded`);
  await afterPayment(db, checkout, progress, started, now);
}

/**
 * What follows a recorded payment: the subscription counts of the dashboards, the charges in
 * the sales ledger and in the customer's payments (both once per charge whoever records them),
 * and the telling. Each is logged, never thrown: the payment is recorded already.
 */
async function afterPayment(
  db: Db,
  checkout: Checkout,
  progress: Progress,
  started: readonly SubscriptionStart[],
  now: Date,
): Promise<void> {
  const { invoice, merchant, customer } = checkout;
  const charges: { charge: StoreCharge; lines: OrderMailLine[] }[] = [];
  const sale = progress.sale;
  const saleLines = checkout.onceLines;
  if (sale && saleLines.length > 0) {
    charges.push({
      charge: {
        merchantAccountId: merchant.merchantAccountId,
        transactionId: sale.id,
        kind: 'order',
        opensOrderIn: orderScopesOf(invoice.lines, 'sale'),
        invoiceId: invoice.invoiceId,
        customer: { id: customer.id, name: customer.name, email: customer.email },
        paidAt: sale.createdAt,
        currency: sale.currency,
        lines: saleLines.map(({ line }) => ({
          productStockId: line.productId,
          productStockGradeId: line.priceId,
          description: line.description,
          units: line.quantity,
          amountMinor: line.amountMinor * line.quantity - (line.discountMinor ?? 0),
          discountMinor: line.discountMinor ?? 0,
        })),
      },
      lines: saleLines.map(({ line }) => ({
        description: line.description,
        quantity: line.quantity,
        amount: formatMoney({
          amountMinor: line.amountMinor * line.quantity - (line.discountMinor ?? 0),
          currency: invoice.currency,
        }),
        saving: savingText(line.discountMinor, invoice),
        renews: null,
      })),
    });
  }
  for (const { line, gateway, number } of checkout.subscriptionLines.flatMap((entry, index) => {
    const gateway = progress.subscriptions.get(entry.subscriptionId);
    return gateway ? [{ line: entry, gateway, number: index + 1 }] : [];
  })) {
    const first = firstCharge(gateway);
    if (!first) continue;
    const amountMinor = fromDecimalAmount(first.amount);
    charges.push({
      charge: {
        merchantAccountId: merchant.merchantAccountId,
        transactionId: first.id,
        kind: 'order',
        opensOrderIn: orderScopesOf(invoice.lines, number),
        invoiceId: invoice.invoiceId,
        subscriptionId: line.subscriptionId,
        customer: { id: customer.id, name: customer.name, email: customer.email },
        paidAt: first.createdAt,
        currency: first.currency,
        lines: [
          {
            productStockId: line.line.productId,
            productStockGradeId: line.line.priceId,
            description: line.line.description,
            units: 1,
            amountMinor,
            discountMinor: line.line.discountMinor ?? 0,
          },
        ],
      },
      lines: [
        {
          description: line.line.description,
          quantity: 1,
          amount: formatMoney({ amountMinor, currency: first.currency }),
          saving: savingText(line.line.discountMinor, invoice),
          renews: `then ${formatMoney({ amountMinor: line.line.amountMinor, currency: invoice.currency })} ${cadence(gateway.billingFrequency)}`,
        },
      ],
    });
  }

  const [recorded] = await Promise.all([
    Promise.all(
      charges.map(async ({ charge }) => {
        try {
          return await recordStoreCharge(db, charge);
        } catch (error) {
          logger.error('An order was paid but a record of it failed', { what: 'sales ledger', errorName: (error as Error).name });
          return true;
        }
      }),
    ),
    ...started.map(({ item }) => logged('subscription counts', () => countSubscriptionChange(db, item, null, item.status))),
    ...started.map(({ item }) => logged('subscription place', () => fillSlot(db, item, now))),
    logged('payments', () => recordCustomerPayments(db, checkout, progress, started)),
  ]);

  // Told once: what this attempt charged itself, and what an earlier attempt charged but nobody recorded (nor told).
  const told = charges.filter(({ charge }, index) => progress.chargedNow.has(charge.transactionId) || recorded[index]);
  const { paid, pending } = splitLines(checkout, progress);
  const card = progress.card ?? invoice.paymentMethod ?? null;
  const downloads =
    told.length > 0
      ? await deliveredFileNames(
          db,
          paid.map(({ line }) => line.priceId),
        )
      : [];
  const firstProduct = [...checkout.onceLines, ...checkout.subscriptionLines].find(({ product }) => product !== null)?.product;
  await tellOrderPaid(db, {
    merchant,
    customer: { id: customer.id, name: customer.name, email: customer.email },
    invoiceId: invoice.invoiceId,
    lines: told.flatMap(({ lines }) => lines),
    totalMinor: told.reduce((sum, { charge }) => sum + charge.lines.reduce((total, line) => total + line.amountMinor, 0), 0),
    currency: invoice.currency,
    card: card ? { cardType: card.cardType, last4: card.last4 } : null,
    chargedAt: told[0]?.charge.paidAt ?? now.toISOString(),
    pending: pending.map(({ line }) => quantified(line)),
    downloads,
    productTitle: firstProduct?.title ?? merchant.shopName,
    now,
  });
}

/** "$3.00 off with SPRING": a discounted line's saving on a receipt. */
const savingText = (discountMinor: number | undefined, invoice: Checkout['invoice']): string | null =>
  discountMinor && invoice.discount
    ? `${formatMoney({ amountMinor: discountMinor, currency: invoice.currency })} off with ${invoice.discount.code}`
    : null;

const cadence = (months: number) => (months === 1 ? 'every month' : months === 12 ? 'every year' : `every ${months} months`);

/** The customer's payments: the sale, and each new subscription's first charge (recordPayments, as the Pro plan's). */
async function recordCustomerPayments(
  db: Db,
  checkout: Checkout,
  progress: Progress,
  started: readonly SubscriptionStart[],
): Promise<void> {
  const { invoice } = checkout;
  const sale = progress.sale;
  if (sale && checkout.onceLines.length > 0) {
    const card = progress.card ?? invoice.paymentMethod;
    try {
      await db.entities.payment
        .create({
          transactionId: sale.id,
          customerId: invoice.customerId,
          sellerId: invoice.sellerId,
          invoiceId: invoice.invoiceId,
          description: `${checkout.merchant.shopName}: ${checkout.onceLines.map(({ line }) => quantified(line)).join(', ')}`,
          amountMinor: fromDecimalAmount(sale.amount),
          currency: sale.currency,
          ...(card ? { cardType: card.cardType, last4: card.last4 } : {}),
          chargedAt: sale.createdAt,
        })
        .go();
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }
  for (const { item, gateway, line } of started) {
    const first = firstCharge(gateway);
    if (first) await recordPayments(db, item, [first], `${checkout.merchant.shopName}: ${line.line.description}`);
  }
}

async function logged(what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    logger.error('An order was paid but a record of it failed', { what, errorName: (error as Error).name });
  }
}
