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
import { isConditionalCheckFailed } from '../db/errors';
import type { Db } from '../db/service';
import { Conflict, NotFound } from '../errors';
import { PaymentDeclined, type DeclineReason } from './gateway';

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
 * The customer's open invoice for one price, made on the first call: reloading checkout or
 * opening it in another tab answers the same invoice. Lines and total come from `price()`, the
 * seller's own product data.
 */
export async function openInvoiceFor(
  db: Db,
  request: {
    customerId: string;
    sellerId: string;
    priceId: string;
    purpose: InvoiceItem['purpose'];
    price: () => { lines: InvoiceLine[]; currency: string };
    now: Date;
  },
): Promise<InvoiceItem> {
  const { customerId, sellerId, priceId } = request;
  const { data: pointer } = await db.entities.openInvoice.get({ customerId, sellerId, priceId }).go({ consistent: true });
  if (pointer) {
    const { data: invoice } = await db.entities.invoice.get({ invoiceId: pointer.invoiceId }).go({ consistent: true });
    if (invoice && invoice.status !== 'paid' && invoice.status !== 'void') return invoice;
  }
  const { lines, currency } = request.price();
  const at = request.now.toISOString();
  const invoiceId = newInvoiceId();
  const result = await db.transaction
    .write(({ invoice, openInvoice }) => [
      invoice
        .create({
          invoiceId,
          customerId,
          sellerId,
          purpose: request.purpose,
          lines,
          totalMinor: lines.reduce((sum, line) => sum + line.amountMinor * line.quantity, 0),
          currency,
          status: 'open',
          attempt: 0,
          createdAt: at,
          updatedAt: at,
        })
        .commit(),
      // Only over the pointer just read: a tab that made an invoice meanwhile wins, and its invoice is answered.
      openInvoice
        .put({ customerId, sellerId, priceId, invoiceId })
        .where((attributes, { eq, notExists }) =>
          pointer ? eq(attributes.invoiceId, pointer.invoiceId) : notExists(attributes.invoiceId),
        )
        .commit(),
    ])
    .go();
  if (result.canceled) {
    const { data: winner } = await db.entities.openInvoice.get({ customerId, sellerId, priceId }).go({ consistent: true });
    if (!winner) throw new Error('An open invoice was made concurrently and is gone again');
    return readOwnInvoice(db, winner.invoiceId, customerId);
  }
  const { data: created } = await db.entities.invoice.get({ invoiceId }).go({ consistent: true });
  if (!created) throw new Error('The invoice just made is not there');
  return created;
}

/** The claim a request holds on an invoice while it pays it. */
export interface InvoiceClaim {
  invoice: InvoiceItem;
  attempt: number;
}

/**
 * Takes the invoice for paying: it must be the caller's and open (or held by a claim that
 * lapsed). Null when someone else holds it or it is settled: read it and wait for the outcome.
 */
export async function claimInvoice(db: Db, invoice: InvoiceItem, now: Date): Promise<InvoiceClaim | null> {
  const at = now.toISOString();
  try {
    const { data } = await db.entities.invoice
      .patch({ invoiceId: invoice.invoiceId })
      .set({ status: 'paying', payingUntil: new Date(now.getTime() + PAYING_LEASE_MS).toISOString(), updatedAt: at })
      .add({ attempt: 1 })
      .where(
        (attributes, { eq, lt }) =>
          `${eq(attributes.customerId, invoice.customerId)} AND (${eq(attributes.status, 'open')} OR (${eq(attributes.status, 'paying')} AND ${lt(attributes.payingUntil, at)}))`,
      )
      .go({ response: 'all_new' });
    return { invoice: data as InvoiceItem, attempt: (data as InvoiceItem).attempt };
  } catch (error) {
    if (isConditionalCheckFailed(error)) return null;
    throw error;
  }
}

/** A decline goes back on the invoice, which is payable again, and is what a waiting request answers too. */
export async function recordDecline(db: Db, claim: InvoiceClaim, decline: PaymentDeclined, now: Date): Promise<void> {
  const at = now.toISOString();
  await releaseClaim(db, claim, { reason: decline.reason, message: decline.message, at }, at);
}

/** The gateway could not be reached: the invoice is payable again at once, with nothing to report. */
export async function releaseInvoice(db: Db, claim: InvoiceClaim, now: Date): Promise<void> {
  await releaseClaim(db, claim, undefined, now.toISOString());
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
      .set({ status: 'open', updatedAt: at, ...(lastDecline ? { lastDecline } : {}) })
      .remove(['payingUntil'])
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
