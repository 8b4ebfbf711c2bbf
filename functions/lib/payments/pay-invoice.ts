/**
 * Paying an invoice exactly once, for every seller: the Pro plan and each shop call this with
 * what differs (which invoices the route may pay, the plan families an invoice starts
 * subscriptions in, how to charge, how to answer a paid invoice, how refusals read).
 *
 * The request holding the invoice's claim (invoices.ts) is the only one that calls the gateway.
 * Every other one waits for its outcome and answers the same: the paid invoice, or the same
 * decline. The claim is refused, and nothing is charged, when the invoice is no longer current
 * (its cart moved on, or was paid from another invoice) or when a plan family it starts a
 * subscription in holds a live subscription, or another invoice being paid, already.
 */
import type { InvoiceItem } from '../db/entities/invoice';
import type { Db } from '../db/service';
import { Conflict } from '../errors';
import { PaymentDeclined } from './gateway';
import {
  awaitPaymentOutcome,
  claimInvoice,
  type InvoiceClaim,
  InvoiceNotFound,
  readOwnInvoice,
  recordDecline,
  releaseInvoice,
} from './invoices';
import { readSlots } from './subscription-slots';

/** Claims to make before giving up: a claim can be lost only to a request that then fails to reach the gateway. */
const CLAIM_ROUNDS = 3;

/** What a seller says when an invoice cannot be paid; each a 409, and nothing was charged. */
export interface PaymentRefusals {
  /** The invoice's pointer moved on: `paidMeanwhile` when it moved to an older invoice that was paid since. */
  superseded(invoice: InvoiceItem, paidMeanwhile: boolean): Conflict;
  /** A plan family's place is taken: by a live subscription (`subscribed`), or by another invoice being paid. */
  familyTaken(invoice: InvoiceItem, family: string, subscribed: boolean): Conflict;
}

export interface InvoicePayment<Answer> {
  invoiceId: string;
  customerId: string;
  /** The invoices this route pays: anything else is answered as no invoice at all (404). */
  accepts: (invoice: InvoiceItem) => boolean;
  /** The plan families the invoice starts subscriptions in (subscription-slots.ts). */
  familiesOf: (invoice: InvoiceItem) => string[];
  refusals: PaymentRefusals;
  /** Charges the claimed invoice and records it paid; on a failure, leaves what was charged recorded and throws. */
  pay: (claim: InvoiceClaim) => Promise<Answer>;
  /** The answer for an invoice paid already (by an earlier or a concurrent call). */
  answerPaid: (invoice: InvoiceItem) => Promise<Answer>;
  now: () => Date;
}

const IN_PROGRESS = 'This invoice is being paid right now. Reload the page in a moment to see the result.';

export async function payInvoiceOnce<Answer>(db: Db, payment: InvoicePayment<Answer>): Promise<Answer> {
  const started = payment.now();
  for (let round = 0; round < CLAIM_ROUNDS; round += 1) {
    const invoice = await readPayableInvoice(db, payment);
    if (invoice.status === 'paid') return payment.answerPaid(invoice);
    const claim = await claimInvoice(db, invoice, payment.now(), payment.familiesOf(invoice));
    if ('refused' in claim) {
      if (claim.refused === 'superseded') throw payment.refusals.superseded(invoice, await paidMeanwhile(db, invoice));
      if (claim.refused === 'family-taken') {
        const slot = (await readSlots(db, invoice, [claim.family])).get(claim.family);
        throw payment.refusals.familyTaken(invoice, claim.family, slot?.subscriptionId !== undefined);
      }
      const outcome = await awaitPaymentOutcome(db, invoice.invoiceId, payment.customerId, started);
      if (outcome) return payment.answerPaid(outcome);
      continue;
    }
    return payClaimed(db, claim, payment);
  }
  throw new Conflict(IN_PROGRESS);
}

async function readPayableInvoice(db: Db, payment: InvoicePayment<unknown>): Promise<InvoiceItem> {
  const invoice = await readOwnInvoice(db, payment.invoiceId, payment.customerId);
  // Another seller's invoice is not there for this route, exactly as a made-up id.
  if (!payment.accepts(invoice)) throw new InvoiceNotFound();
  if (invoice.status === 'void') throw new Conflict('This invoice was withdrawn and cannot be paid.');
  return invoice;
}

/** The seller's charge; a decline goes on the invoice for waiting requests, anything else releases it. */
async function payClaimed<Answer>(db: Db, claim: InvoiceClaim, payment: InvoicePayment<Answer>): Promise<Answer> {
  try {
    return await payment.pay(claim);
  } catch (error) {
    if (error instanceof PaymentDeclined) await recordDecline(db, claim, error, payment.now());
    else await releaseInvoice(db, claim, payment.now());
    throw error;
  }
}

/** Whether the invoice was superseded by an older one that was paid since (a cart paid from another tab). */
async function paidMeanwhile(db: Db, invoice: InvoiceItem): Promise<boolean> {
  if (!invoice.openAs) return false;
  const { data: pointer } = await db.entities.openInvoice
    .get({ customerId: invoice.customerId, sellerId: invoice.sellerId, priceId: invoice.openAs })
    .go({ consistent: true });
  if (!pointer) return false;
  const { data: current } = await db.entities.invoice.get({ invoiceId: pointer.invoiceId }).go({ consistent: true });
  return current?.status === 'paid' && current.createdAt <= invoice.createdAt;
}
