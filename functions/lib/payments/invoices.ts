/**
 * Invoices: made from what is being bought, priced by the server, then paid exactly once.
 *
 * Paying is a claim on the invoice held by a conditional write (open → paying, with a lease and
 * an attempt number). The request holding the claim is the only one that calls the gateway;
 * a second click, a retry or another tab finds the claim taken and waits for its outcome, then
 * answers the same: the paid invoice, or the same decline. A claim whose holder died (a Lambda
 * stopped mid-charge) lapses after the lease, and the next claim picks the payment up where it
 * stopped (the gateway's own ids make its steps safe to repeat).
 */
import { randomBytes } from 'node:crypto';
import type { InvoiceItem } from '../db/entities/invoice';
import { failedConditions, isConditionalCheckFailed } from '../db/errors';
import type { Db } from '../db/service';
import { Conflict, NotFound } from '../errors';
import { PaymentDeclined, type DeclineReason } from './gateway';
import { IN_DOUBT_HOLD_MS, isFilledBy, readSlots, releaseSlots } from './subscription-slots';

/** How long a claim holds: longer than the gateway calls of one payment can take (the route gives up at 25 s). */
export const PAYING_LEASE_MS = 60_000;
/** How long a second request waits for the first one's outcome before saying it is still in progress. */
const OUTCOME_WAIT_MS = 20_000;
const OUTCOME_POLL_MS = 150;

export const newInvoiceId = (): string => randomBytes(16).toString('base64url');

export interface InvoiceLine {
  productId: string;
  priceId: string;
  description: string;
  quantity: number;
  amountMinor: number;
  /** What a shop's discount code takes off the line (all its units). */
  discountMinor?: number;
}

export class InvoiceNotFound extends NotFound {
  constructor() {
    super('No such invoice.');
  }
}

/** The caller's invoice, or 404: another customer's invoice is not there for them. */
export async function readOwnInvoice(db: Db, invoiceId: string, customerId: string): Promise<InvoiceItem> {
  const { data } = await db.entities.invoice.get({ invoiceId }).go({ consistent: true });
  if (!data || data.customerId !== customerId) throw new InvoiceNotFound();
  return data;
}

/**
 * The customer's current invoice for one thing being bought at a seller (`openAs`: a Pro price;
 * 'cart' for a shop's cart), made on the first call: reloading checkout or opening it in another
 * tab answers the same invoice while it charges the same (`contentKey`). When what it charges
 * changes, a new invoice is made and the pointer moves to it, which supersedes the last one: it
 * can no longer be claimed (claimInvoice). An invoice whose outcome is in doubt is not superseded:
 * it is answered until it is paid again and its outcome is known. Lines and total come from
 * `price()`, the seller's own product data.
 */
export async function openInvoiceFor(
  db: Db,
  request: {
    customerId: string;
    sellerId: string;
    openAs: string;
    contentKey: string;
    purpose: InvoiceItem['purpose'];
    price: () => { lines: InvoiceLine[]; currency: string; discount?: InvoiceItem['discount'] };
    now: Date;
  },
): Promise<InvoiceItem> {
  const { customerId, sellerId, openAs, contentKey } = request;
  const pointerKey = { customerId, sellerId, priceId: openAs };
  const { data: pointer } = await db.entities.openInvoice.get(pointerKey).go({ consistent: true });
  if (pointer) {
    const invoice = await invoiceIfAny(db, pointer.invoiceId);
    if (invoice && isCurrent(invoice, pointer.contentKey ?? pointer.priceId, contentKey)) return invoice;
  }
  // A cart back to what an earlier open invoice charged answers that invoice again (each content has a pointer of its own).
  const byContentKey = contentKey === openAs ? null : { customerId, sellerId, priceId: contentKey };
  const earlier = byContentKey ? await openInvoiceOfContent(db, byContentKey) : null;
  const at = request.now.toISOString();
  const invoiceId = earlier?.invoiceId ?? newInvoiceId();
  const result = await db.transaction
    .write(({ invoice, openInvoice }) => [
      ...(earlier ? [] : [invoice.create(newInvoice({ ...request, invoiceId, at, ...request.price() })).commit()]),
      // Only over the pointer just read: a tab that made an invoice meanwhile wins, and its invoice is answered.
      openInvoice
        .put({ ...pointerKey, invoiceId, contentKey })
        .where((attributes, { eq, notExists }) =>
          pointer ? eq(attributes.invoiceId, pointer.invoiceId) : notExists(attributes.invoiceId),
        )
        .commit(),
      ...(byContentKey && !earlier ? [openInvoice.put({ ...byContentKey, invoiceId, contentKey }).commit()] : []),
    ])
    .go();
  if (result.canceled) {
    const { data: winner } = await db.entities.openInvoice.get(pointerKey).go({ consistent: true });
    if (!winner) throw new Error('An open invoice was made concurrently and is gone again');
    return readOwnInvoice(db, winner.invoiceId, customerId);
  }
  const { data: answered } = await db.entities.invoice.get({ invoiceId }).go({ consistent: true });
  if (!answered) throw new Error('The invoice just made is not there');
  return answered;
}

async function invoiceIfAny(db: Db, invoiceId: string): Promise<InvoiceItem | null> {
  const { data } = await db.entities.invoice.get({ invoiceId }).go({ consistent: true });
  return data;
}

async function openInvoiceOfContent(
  db: Db,
  key: { customerId: string; sellerId: string; priceId: string },
): Promise<InvoiceItem | null> {
  const { data: pointer } = await db.entities.openInvoice.get(key).go({ consistent: true });
  const invoice = pointer ? await invoiceIfAny(db, pointer.invoiceId) : null;
  // Only an invoice made under the same pointer (not one older than pointers were checked).
  return invoice?.status === 'open' && invoice.openAs !== undefined ? invoice : null;
}

function newInvoice(request: {
  invoiceId: string;
  customerId: string;
  sellerId: string;
  openAs: string;
  purpose: InvoiceItem['purpose'];
  lines: InvoiceLine[];
  currency: string;
  discount?: InvoiceItem['discount'];
  at: string;
}): InvoiceItem {
  return {
    invoiceId: request.invoiceId,
    customerId: request.customerId,
    sellerId: request.sellerId,
    purpose: request.purpose,
    lines: request.lines,
    totalMinor: request.lines.reduce((sum, line) => sum + line.amountMinor * line.quantity - (line.discountMinor ?? 0), 0),
    currency: request.currency,
    ...(request.discount ? { discount: request.discount } : {}),
    status: 'open',
    attempt: 0,
    openAs: request.openAs,
    createdAt: request.at,
    updatedAt: request.at,
  };
}

function isCurrent(invoice: InvoiceItem, pointedContent: string, contentKey: string): boolean {
  if (invoice.status === 'paid' || invoice.status === 'void') return false;
  return pointedContent === contentKey || (invoice.status === 'open' && invoice.inDoubt === true);
}

type WriteEntities = Parameters<Parameters<Db['transaction']['write']>[0]>[0];

/**
 * For the transaction that marks an invoice paid: its pointer names it, paid, so the next request
 * for the invoice makes a new one, and an invoice made meanwhile (its cart changed while this one
 * was being paid) is superseded by the payment and says so.
 */
export function paidPointerWrites(openInvoice: WriteEntities['openInvoice'], invoice: InvoiceItem) {
  if (!invoice.openAs) return [];
  return [
    openInvoice
      .put({ customerId: invoice.customerId, sellerId: invoice.sellerId, priceId: invoice.openAs, invoiceId: invoice.invoiceId })
      .commit(),
  ];
}

/** The claim a request holds on an invoice while it pays it. */
export interface InvoiceClaim {
  invoice: InvoiceItem;
  attempt: number;
  /** The plan families whose places the claim holds (subscription-slots.ts). */
  families: readonly string[];
  /** Set just before a call that moves money: a failure after it leaves the payment's outcome in doubt. */
  chargeSent: boolean;
}

/** Why an invoice could not be claimed. */
export type ClaimRefusal =
  /** Someone else holds its claim, or it was settled meanwhile: read it and wait for the outcome. */
  | { refused: 'busy' }
  /** The pointer has moved on to another invoice (or to the one that paid this cart). */
  | { refused: 'superseded' }
  /** A plan family's place is held by another invoice or a live subscription. */
  | { refused: 'family-taken'; family: string };

/**
 * Takes the invoice for paying, in one transaction: the invoice itself (the caller's, and open,
 * or held by a claim that lapsed), its pointer still naming it (an open invoice only: one already
 * being paid when its cart changed is the one that completes), and the place of every plan
 * family it starts a subscription in (free, lapsed, or this invoice's own and still empty).
 */
export async function claimInvoice(
  db: Db,
  invoice: InvoiceItem,
  now: Date,
  families: readonly string[],
): Promise<InvoiceClaim | ClaimRefusal> {
  const at = now.toISOString();
  const payingUntil = new Date(now.getTime() + PAYING_LEASE_MS).toISOString();
  const fresh = invoice.status === 'open';
  if (!fresh && !(invoice.status === 'paying' && invoice.payingUntil !== undefined && invoice.payingUntil < at)) {
    return { refused: 'busy' };
  }
  const checksPointer = fresh && invoice.openAs !== undefined && invoice.inDoubt !== true;
  const owner = { customerId: invoice.customerId, sellerId: invoice.sellerId };
  const slots = await readSlots(db, owner, families);
  const toTake = families.filter((family) => !isFilledBy(slots.get(family), invoice.invoiceId));
  const result = await db.transaction
    .write(({ invoice: invoices, openInvoice, subscriptionSlot }) => [
      invoices
        .patch({ invoiceId: invoice.invoiceId })
        .set({ status: 'paying', payingUntil, updatedAt: at })
        .add({ attempt: 1 })
        .where((attributes, { eq, lt }) =>
          fresh
            ? `${eq(attributes.customerId, invoice.customerId)} AND ${eq(attributes.status, 'open')}`
            : `${eq(attributes.customerId, invoice.customerId)} AND ${eq(attributes.status, 'paying')} AND ${lt(attributes.payingUntil, at)}`,
        )
        .commit(),
      ...(checksPointer
        ? [
            openInvoice
              .check({ ...owner, priceId: invoice.openAs as string })
              .where((attributes, { eq }) => eq(attributes.invoiceId, invoice.invoiceId))
              .commit(),
          ]
        : []),
      ...toTake.map((family) =>
        subscriptionSlot
          .put({ ...owner, family, invoiceId: invoice.invoiceId, liveUntil: payingUntil, updatedAt: at })
          .where(
            (attributes, { eq, lt, notExists }) =>
              `${notExists(attributes.invoiceId)} OR ${lt(attributes.liveUntil, at)} OR (${eq(attributes.invoiceId, invoice.invoiceId)} AND ${notExists(attributes.subscriptionId)})`,
          )
          .commit(),
      ),
    ])
    .go();
  if (result.canceled) {
    const failed = failedConditions(result);
    // In write order: the invoice, the pointer (when checked), then one place per family taken.
    const firstPlace = checksPointer ? 2 : 1;
    const takenFamily = toTake[(failed.find((index) => index >= firstPlace) ?? -1) - firstPlace];
    // Only a collision with another transaction cancels with no condition failed: as busy, it is tried again.
    if (failed.includes(0) || failed.length === 0) return { refused: 'busy' };
    if (checksPointer && failed.includes(1)) return { refused: 'superseded' };
    return takenFamily === undefined ? { refused: 'busy' } : { refused: 'family-taken', family: takenFamily };
  }
  const claimed = await readOwnInvoice(db, invoice.invoiceId, invoice.customerId);
  return { invoice: claimed, attempt: claimed.attempt, families, chargeSent: false };
}

/** A decline goes back on the invoice, which is payable again, and is what a waiting request answers too. */
export async function recordDecline(db: Db, claim: InvoiceClaim, decline: PaymentDeclined, now: Date): Promise<void> {
  const at = now.toISOString();
  await releaseClaim(db, claim, { reason: decline.reason, message: decline.message, at }, at);
  await releaseSlots(db, claim.invoice, claim.families, now);
}

/**
 * The payment stopped without a decline (the gateway out of reach, a check that failed): the
 * invoice is payable again at once. When a charge had been sent, its outcome is in doubt: the
 * invoice keeps its places a while and is not superseded, so that paying it again finds what the
 * gateway did before anything is charged anew.
 */
export async function releaseInvoice(db: Db, claim: InvoiceClaim, now: Date): Promise<void> {
  await releaseClaim(db, claim, undefined, now.toISOString());
  await releaseSlots(
    db,
    claim.invoice,
    claim.families,
    now,
    claim.chargeSent ? new Date(now.getTime() + IN_DOUBT_HOLD_MS) : undefined,
  );
}

async function releaseClaim(
  db: Db,
  claim: InvoiceClaim,
  lastDecline: { reason: string; message: string; at: string } | undefined,
  at: string,
): Promise<void> {
  try {
    const update = db.entities.invoice
      .patch({ invoiceId: claim.invoice.invoiceId })
      .set({
        status: 'open',
        updatedAt: at,
        ...(lastDecline ? { lastDecline } : {}),
        ...(claim.chargeSent && !lastDecline ? { inDoubt: true } : {}),
      })
      // A decline is an answer: what was sent before it is known now.
      .remove(lastDecline ? ['payingUntil', 'inDoubt'] : ['payingUntil'])
      // Only our own claim: a later one (ours lapsed) is not ours to undo.
      .where((attributes, { eq }) => `${eq(attributes.status, 'paying')} AND ${eq(attributes.attempt, claim.attempt)}`);
    await update.go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/**
 * Waits for another request's payment of the invoice to end and answers its outcome: the paid
 * invoice, or that request's decline (thrown, as it would have been to that request). Null when
 * the invoice is payable again with nothing new to say (the other request could not reach the
 * gateway, or its claim lapsed): the caller may claim it itself.
 */
export async function awaitPaymentOutcome(
  db: Db,
  invoiceId: string,
  customerId: string,
  since: Date,
): Promise<InvoiceItem | null> {
  const deadline = Date.now() + OUTCOME_WAIT_MS;
  for (;;) {
    const invoice = await readOwnInvoice(db, invoiceId, customerId);
    if (invoice.status === 'paid') return invoice;
    if (invoice.status === 'void') throw new Conflict('This invoice was withdrawn and cannot be paid.');
    if (invoice.status === 'open') {
      const decline = invoice.lastDecline;
      if (decline && Date.parse(decline.at) >= since.getTime()) {
        throw new PaymentDeclined(decline.reason as DeclineReason, decline.message);
      }
      return null;
    }
    if (invoice.payingUntil && Date.parse(invoice.payingUntil) <= Date.now()) return null;
    if (Date.now() >= deadline)
      throw new Conflict('This invoice is being paid right now. Reload the page in a moment to see the result.');
    await new Promise((resolve) => setTimeout(resolve, OUTCOME_POLL_MS));
  }
}
