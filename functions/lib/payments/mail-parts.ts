/**
 * What every mail about money is made of, whoever was paid (the platform for its Pro plan, or a
 * shop of the storefront): the receipt for one charge, the limits of receipts and confirmations,
 * whom such mail goes to, and sending it without failing the payment that caused it.
 */
import { formatMoney } from '../../../shared/payments/money';
import type { PaymentItem } from '../db/entities/payment';
import type { Db } from '../db/service';
import { getUser } from '../db/users';
import { logger } from '../logger';
import { html, mailLink } from '../mail/template';
import { type MailKind, sendMail } from '../mailer';

type Limits<Data> = Pick<MailKind<Data>, 'cooldown' | 'dailyPerAddress' | 'hourlyOverall' | 'unavailableMessage'>;

/** Every charge gets its receipt: no cooldown, a generous daily cap against a bug looping. */
export const RECEIPT_LIMITS: Limits<unknown> = {
  cooldown: { seconds: 0, message: () => 'A receipt was just sent.' },
  dailyPerAddress: { limit: 50, message: () => 'Too many receipts were sent to this address today.' },
  hourlyOverall: { limit: 50_000, message: () => 'Too many receipts are being sent right now.' },
  unavailableMessage: 'The receipt could not be emailed.',
};

/** A cancellation is confirmed each time: no cooldown, a daily cap. */
export const CONFIRMATION_LIMITS: Limits<unknown> = {
  cooldown: { seconds: 0, message: () => 'A confirmation was just sent.' },
  dailyPerAddress: { limit: 20, message: () => 'Too many confirmations were sent to this address today.' },
  hourlyOverall: { limit: 20_000, message: () => 'Too many confirmations are being sent right now.' },
  unavailableMessage: 'The confirmation could not be emailed.',
};

/** One charge as its receipt tells it. */
export interface ReceiptFacts {
  description: string;
  amount: string;
  chargedOn: string;
  card: string;
  transactionId: string;
}

/** "November 26, 2026", for a YYYY-MM-DD day or an instant. */
export function formatDay(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value.length === 10 ? `${value}T12:00:00Z` : value) : value;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/**
 * A receipt's text and markup: thanks to whoever was paid (`payee`), the charge, when and to
 * which card, and a link (`linkWords`) to where the payer sees what they pay for.
 */
export function receiptContent(receipt: ReceiptFacts & { payee: string; billingUrl: string; linkWords: string }): {
  text: string;
  html: string;
} {
  const { payee, description, amount, chargedOn, card, transactionId, linkWords } = receipt;
  const link = mailLink(receipt.billingUrl);
  const text = [
    `Thank you for your payment to ${payee}.`,
    '',
    `${description}: ${amount}`,
    `Charged on ${chargedOn} to ${card}.`,
    `Reference: ${transactionId}`,
    '',
    `${linkWords}: ${link}`,
    '',
  ].join('\n');
  const body = html`<!doctype html>
    <html>
      <body style="font-family:system-ui,sans-serif;line-height:1.5">
        <p>Thank you for your payment to ${payee}.</p>
        <table style="border-collapse:collapse">
          <tr>
            <td style="padding:4px 16px 4px 0">${description}</td>
            <td style="padding:4px 0;font-weight:600">${amount}</td>
          </tr>
        </table>
        <p style="color:#555">Charged on ${chargedOn} to ${card}. Reference: ${transactionId}</p>
        <p><a href="${link}">${linkWords}</a></p>
      </body>
    </html>`;
  return { text, html: body.markup };
}

/** The verified address of a customer, or null: mail about money goes only where its owner proved they read. */
export async function verifiedAddressOf(db: Db, customerId: string): Promise<string | null> {
  const user = await getUser(db, { userId: customerId });
  return user?.email && user.emailVerified ? user.email : null;
}

/** Sends a mail, logging (as `warning`, with `what`) instead of failing when it cannot go out. */
export async function sendQuietly(warning: string, what: string, send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (error) {
    logger.warn(warning, { what, errorName: (error as Error).name });
  }
}

/**
 * One receipt per charge, to the payer's verified address, each marked sent on its payment item
 * once it went out. `data` adds what the kind's template needs beyond the charge itself; a receipt
 * that cannot go out is logged as `warning` with `what`.
 */
export async function sendReceiptMails<Data>(
  db: Db,
  payments: readonly PaymentItem[],
  now: Date,
  send: { kind: MailKind<Data>; warning: string; what: string; data: (receipt: ReceiptFacts) => Data },
): Promise<void> {
  const customerId = payments[0]?.customerId;
  const to = customerId ? await verifiedAddressOf(db, customerId) : null;
  if (!to) return;
  for (const payment of payments) {
    await sendQuietly(send.warning, send.what, async () => {
      await sendMail(db, send.kind, {
        to,
        now,
        data: () =>
          send.data({
            description: payment.description,
            amount: formatMoney({ amountMinor: payment.amountMinor, currency: payment.currency }),
            chargedOn: formatDay(payment.chargedAt),
            card: payment.cardType && payment.last4 ? `${payment.cardType} ending ${payment.last4}` : 'your card',
            transactionId: payment.transactionId,
          }),
      });
      await db.entities.payment.patch({ transactionId: payment.transactionId }).set({ receiptSentAt: now.toISOString() }).go();
    });
  }
}
