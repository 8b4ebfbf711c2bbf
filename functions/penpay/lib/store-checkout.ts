/**
 * Paying a cart's invoice at the shop's own Braintree account, exactly once: the one-time lines
 * as one sale, each subscription line as a subscription on its grade's plan (whose creation
 * charges its first cycle). As for the Pro plan (functions/lib/payments/subscription-checkout.ts),
 * the request holding the invoice's claim is the only one that calls the gateway; every other
 * one waits for its outcome and answers the same.
 *
 * Every step at the gateway can be found again by an id derived from the invoice: the sale by
 * its order id (the invoice id), each subscription by `s_<invoiceId>_<n>`. So an attempt resumed
 * after a lost answer, a lapsed claim or a decline finds what earlier attempts did and charges
 * only what is still missing.
 *
 * Order of the charges, and a decline in the middle. The sale goes first, then the
 * subscriptions in line order. Braintree charges a subscription's first cycle when it is made
 * and the port has no refund, so either order leaves something paid when a later charge is
 * declined; neither can be undone. What this module does then is keep what was paid and say so:
 * - everything paid so far is recorded as paid (the subscriptions stored, so their owner sees
 *   and can cancel them; the order with the lines paid; the sales ledger; the payments; a
 *   receipt), and the paid lines leave the cart;
 * - the invoice stays payable, with the decline on it and a message naming what is paid and
 *   what is not; the cart's remaining lines point at this same invoice, so the cart page keeps
 *   answering it instead of a new one that would charge the paid lines again;
 * - paying the invoice again (another card) charges only what is missing: the sale is found by
 *   its order id (and its id is on the invoice), the started subscriptions by their ids.
 * The sale goes first because it is the one charge that is found by a search (the
 * subscriptions by a direct read), and because a cart's one-time lines are usually most of it:
 * a decline of the sale then leaves nothing paid at all.
 */
import { formatMoney, fromDecimalAmount, toDecimalAmount } from '../../../shared/payments/money';
import type { InvoiceItem } from '../../lib/db/entities/invoice';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { ProductStockItem } from '../../lib/db/entities/product-stock';
import type { ProductStockGradeItem } from '../../lib/db/entities/product-stock-grade';
import type { StoreOrderItem } from '../../lib/db/entities/store-order';
import type { SubscriptionItem } from '../../lib/db/entities/subscription';
import { getBatch } from '../../lib/db/batches';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import type { Db } from '../../lib/db/service';
import { requireUser, verifiedEmailOfUser } from '../../lib/db/users';
import { Conflict } from '../../lib/errors';
import { logger } from '../../lib/logger';
import {
  type GatewaySubscription,
  type GatewayTransaction,
  MONEY_TAKEN_STATUSES,
  PaymentDeclined,
  type PaymentGateway,
  type PaymentMethodSummary,
  PaymentRecordNotFound,
  SubscriptionIdTaken,
} from '../../lib/payments/gateway';
import { type InvoiceClaim, InvoiceNotFound, paidPointerWrites, readOwnInvoice } from '../../lib/payments/invoices';
import { payInvoiceOnce, type PaymentRefusals } from '../../lib/payments/pay-invoice';
import { PLATFORM_SELLER_ID } from '../../lib/payments/pro-plan-access';
import { fillSlot, planFamilyOf } from '../../lib/payments/subscription-slots';
import { recordPayments, stateFromGateway } from '../../lib/payments/subscription-sync';
import { CART_POINTER, cartInvoiceKey, chargedLinesOf, readCart, readCatalog } from './cart';
import { isPurchasable } from './catalog';
import { orderScopesOf, recordStoreCharge, type StoreCharge } from './sales-ledger';
import { shopGateway } from './shop-gateway';
import { type OrderMailLine, tellOrderPaid } from './store-mail';
import { countSubscriptionChange } from '../../lib/payments/subscription-counts';

/** The gateway's id of an invoice's n-th subscription (1-based): Braintree takes letters, digits, - and _, at most 36. */
export const storeSubscriptionIdFor = (invoiceId: string, n: number) => `s_${invoiceId}_${n}`.slice(0, 36);

type InvoiceLine = InvoiceItem['lines'][number];
type Card = PaymentMethodSummary;

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
 * Pays the caller's cart invoice; resolves once it is paid (by this call, or earlier, or by a
 * concurrent one). Throws 409 when the cart moved on from the invoice, when a line changed since
 * the invoice was made, or when the customer holds a subscription to one of its grades already
 * (nothing charged); 402 when a card is declined (the invoice stays payable); 503 when the
 * gateway is out of reach.
 */
export async function payStoreInvoice(db: Db, request: StoreCheckoutRequest): Promise<void> {
  await payInvoiceOnce(db, {
    invoiceId: request.invoiceId,
    customerId: request.customerId,
    accepts: isStoreInvoice,
    familiesOf: (invoice) =>
      invoice.lines
        .filter((line) => line.billing === 'subscription')
        .map((line) => planFamilyOf({ sellerId: invoice.sellerId, productId: line.productId, priceId: line.priceId })),
    refusals: STORE_REFUSALS,
    pay: (claim) => payClaimed(db, claim, request),
    answerPaid: async () => undefined,
    now: request.now,
  });
}

const isStoreInvoice = (invoice: InvoiceItem) => invoice.purpose === 'order' && invoice.sellerId !== PLATFORM_SELLER_ID;

/** Why a cart's invoice cannot be paid (each a 409; nothing was charged). */
const STORE_REFUSALS: PaymentRefusals = {
  superseded: (_, paidMeanwhile) =>
    new Conflict(
      paidMeanwhile
        ? 'Your cart was paid in another tab or window: nothing more was charged. Your orders show what you bought, and your cart what is still in it.'
        : 'Your cart changed since this invoice was made: nothing was charged. Review your cart and pay its new total.',
    ),
  familyTaken: (invoice, family, subscribed) => {
    const what = invoice.lines.find((line) => line.priceId === family)?.description ?? 'this subscription';
    return new Conflict(
      subscribed
        ? `You subscribe to ${what} already: nothing was charged. Manage it from your orders page, or take it out of your cart.`
        : `${what} is being paid in another tab or window right now: nothing was charged here. Reload the page in a moment.`,
    );
  },
};

/**
 * One line of the invoice with the grade and product it names, as they are now: both there for a
 * line still to charge (it was checked); either may be gone from a line paid by an earlier attempt.
 */
interface CheckedLine {
  line: InvoiceLine;
  grade: ProductStockGradeItem | null;
  product: ProductStockItem | null;
}

/** Everything a payment needs, read and checked before the gateway is called. */
interface Checkout {
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
interface Progress {
  card: Card | null;
  sale: GatewayTransaction | null;
  subscriptions: Map<string, GatewaySubscription>;
  /** Transactions this attempt's own calls made: told of whoever records them first (a webhook may). */
  chargedNow: Set<string>;
}

/**
 * Charges what the invoice still lacks. On a failure after something was charged, what was paid
 * is kept and recorded before anything is answered, and a decline says what is paid and what is
 * not; the engine then puts the decline on the invoice (or releases it) and answers it.
 */
async function payClaimed(db: Db, claim: InvoiceClaim, request: StoreCheckoutRequest): Promise<void> {
  const checkout = await prepare(db, claim);
  const progress: Progress = { card: null, sale: null, subscriptions: new Map(), chargedNow: new Set() };
  try {
    await chargeAtGateway(db, checkout, progress, request);
  } catch (error) {
    const paidBefore = claim.invoice.transactionId !== undefined || checkout.stored.size > 0;
    const paidNow = progress.sale !== null || progress.subscriptions.size > 0;
    if (paidNow) {
      await recordPart(db, checkout, progress, request.now()).catch((recordError: unknown) => {
        logger.error('A partly paid order could not be recorded', {
          invoiceId: claim.invoice.invoiceId,
          errorName: (recordError as Error).name,
        });
      });
    }
    if (error instanceof PaymentDeclined && (paidBefore || paidNow)) throw partlyPaidDecline(checkout, progress, error);
    throw error;
  }
  await recordPaid(db, checkout, progress, request.now());
}

/**
 * Reads the shop, its gateway, the customer and the invoice's grades, and checks every line
 * still to charge against its grade now: a grade that stopped being sold, changed billing or
 * changed price is a 409 naming each change, before anything is charged.
 */
async function prepare(db: Db, claim: InvoiceClaim): Promise<Checkout> {
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
  if (!merchant) throw new Conflict('This shop is closed: nothing was charged.');
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

const saleAmountMinor = (lines: readonly CheckedLine[]) =>
  lines.reduce((sum, { line }) => sum + line.amountMinor * line.quantity, 0);

/** The gateway's steps, resumed where earlier attempts at the same invoice stopped. `progress` fills as they go. */
async function chargeAtGateway(db: Db, checkout: Checkout, progress: Progress, request: StoreCheckoutRequest): Promise<void> {
  const { invoice, claim, gateway } = checkout;
  const missing = checkout.subscriptionLines.filter(({ subscriptionId }) => !checkout.stored.has(subscriptionId));
  const needsSale = checkout.onceLines.length > 0;
  if (needsSale && (claim.attempt > 1 || invoice.transactionId !== undefined)) {
    const found = await gateway.findSaleByOrderId(invoice.invoiceId);
    if (found && MONEY_TAKEN_STATUSES.has(found.status)) progress.sale = found;
  }
  if (claim.attempt > 1) {
    for (const { subscriptionId } of missing) {
      const found = await findSubscription(gateway, subscriptionId);
      if (found) progress.subscriptions.set(subscriptionId, found);
    }
  }
  const saleMissing = needsSale && progress.sale === null && invoice.transactionId === undefined;
  const subscriptionsMissing = missing.filter(({ subscriptionId }) => !progress.subscriptions.has(subscriptionId));
  // Everything was charged by an attempt whose answer was lost: no card is needed (its nonce may be spent).
  if (!saleMissing && subscriptionsMissing.length === 0 && invoice.paymentMethod) {
    progress.card = invoice.paymentMethod;
    return;
  }

  await gateway.ensureCustomer({
    id: checkout.customer.id,
    email: checkout.customer.gatewayEmail,
    name: checkout.customer.name,
  });
  const card = await gateway.vaultPaymentMethod({
    customerId: checkout.customer.id,
    nonce: request.nonce,
    ...(request.deviceData ? { deviceData: request.deviceData } : {}),
  });
  progress.card = card;
  // Kept before any charge, so an attempt resumed after this one stopped can still show the card.
  await patchOwnAttempt(db, claim, { paymentMethod: card });

  if (saleMissing) {
    claim.chargeSent = true;
    progress.sale = await gateway.sale({
      amount: toDecimalAmount(saleAmountMinor(checkout.onceLines)),
      paymentMethodToken: card.token,
      orderId: invoice.invoiceId,
    });
    progress.chargedNow.add(progress.sale.id);
  }
  if (progress.sale && invoice.transactionId === undefined) {
    // At once: from here the sale is known to the invoice even if nothing else of this attempt is written.
    await patchOwnAttempt(db, claim, { transactionId: progress.sale.id });
  }

  for (const { grade, line, subscriptionId } of subscriptionsMissing) {
    // Checked by prepare: a line still to charge has its grade, sold by subscription.
    if (!grade?.plan) throw new Error(`The grade of subscription line ${subscriptionId} has no plan`);
    let subscription: GatewaySubscription;
    claim.chargeSent = true;
    try {
      subscription = await gateway.createSubscription({
        id: subscriptionId,
        planId: grade.plan.braintreePlanId,
        paymentMethodToken: card.token,
        price: toDecimalAmount(line.amountMinor),
      });
      const first = firstCharge(subscription);
      if (first) progress.chargedNow.add(first.id);
    } catch (error) {
      if (!(error instanceof SubscriptionIdTaken)) throw error;
      subscription = await gateway.findSubscription(subscriptionId);
    }
    progress.subscriptions.set(subscriptionId, subscription);
  }
}

async function findSubscription(gateway: PaymentGateway, id: string): Promise<GatewaySubscription | null> {
  try {
    return await gateway.findSubscription(id);
  } catch (error) {
    if (error instanceof PaymentRecordNotFound) return null;
    throw error;
  }
}

/** Writes to the invoice only while this attempt's claim is the latest: a lapsed claim writes nothing. */
async function patchOwnAttempt(
  db: Db,
  claim: InvoiceClaim,
  set: { paymentMethod: Card } | { transactionId: string },
): Promise<void> {
  try {
    await db.entities.invoice
      .patch({ invoiceId: claim.invoice.invoiceId })
      .set(set)
      .where((attributes, { eq }) => eq(attributes.attempt, claim.attempt))
      .go();
  } catch (error) {
    // A later claim took over: it finds what this attempt charged by its ids, and its final write decides.
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** The declined charge's own words, and what of the order is paid and what is not. */
function partlyPaidDecline(checkout: Checkout, progress: Progress, decline: PaymentDeclined): PaymentDeclined {
  const { paid, pending } = splitLines(checkout, progress);
  const paidText = paid.map(({ line }) => quantified(line)).join(', ');
  const pendingText = pending.map(({ line }) => quantified(line)).join(', ');
  return new PaymentDeclined(
    decline.reason,
    `${decline.message} Already paid, and not charged again: ${paidText}. Still to pay: ${pendingText}. Pay again, with another card, to complete the order.`,
    { cause: decline, details: { ...decline.details, partlyPaid: true } },
  );
}

const quantified = (line: InvoiceLine) => (line.quantity > 1 ? `${line.description} × ${line.quantity}` : line.description);

/** The invoice's lines that are paid (by any attempt) and those still to pay. */
function splitLines(checkout: Checkout, progress: Progress): { paid: CheckedLine[]; pending: CheckedLine[] } {
  const saleDone = progress.sale !== null || checkout.invoice.transactionId !== undefined;
  const paid: CheckedLine[] = saleDone ? [...checkout.onceLines] : [];
  const pending: CheckedLine[] = saleDone ? [] : [...checkout.onceLines];
  for (const line of checkout.subscriptionLines) {
    const started = checkout.stored.has(line.subscriptionId) || progress.subscriptions.has(line.subscriptionId);
    (started ? paid : pending).push(line);
  }
  return { paid, pending };
}

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
    })),
    totalMinor: paid.reduce((sum, { line }) => sum + line.amountMinor * line.quantity, 0),
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
async function recordPaid(db: Db, checkout: Checkout, progress: Progress, now: Date): Promise<void> {
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
async function recordPart(db: Db, checkout: Checkout, progress: Progress, now: Date): Promise<void> {
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
                contentKey: cartInvoiceKey(chargedLinesOf(pending.map(({ line }) => line))),
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
          amountMinor: line.amountMinor * line.quantity,
        })),
      },
      lines: saleLines.map(({ line }) => ({
        description: line.description,
        quantity: line.quantity,
        amount: formatMoney({ amountMinor: line.amountMinor * line.quantity, currency: invoice.currency }),
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
          },
        ],
      },
      lines: [
        {
          description: line.line.description,
          quantity: 1,
          amount: formatMoney({ amountMinor, currency: first.currency }),
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
  const { pending } = splitLines(checkout, progress);
  const card = progress.card ?? invoice.paymentMethod ?? null;
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
    productTitle: firstProduct?.title ?? merchant.shopName,
    now,
  });
}

/** A subscription's first charge: the oldest of its transactions that took the money. */
function firstCharge(subscription: GatewaySubscription): GatewayTransaction | undefined {
  return [...subscription.transactions].reverse().find((transaction) => MONEY_TAKEN_STATUSES.has(transaction.status));
}

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
