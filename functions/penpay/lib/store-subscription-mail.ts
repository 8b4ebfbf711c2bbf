/**
 * What a customer is told about a subscription at a shop, in the shop's name: a receipt for each
 * renewal (and prorated add-on charge), and the confirmation that it was canceled. The payment
 * core's own mails thank the platform, which is not who a shop's customer paid. Telling never
 * fails the change that caused it: a mail that cannot go out is logged, and the change stands.
 */
import { formatMoney } from '../../../shared/payments/money';
import { getConfig } from '../../lib/config';
import type { PaymentItem } from '../../lib/db/entities/payment';
import type { SubscriptionItem } from '../../lib/db/entities/subscription';
import type { Db } from '../../lib/db/service';
import { getUser } from '../../lib/db/users';
import { logger } from '../../lib/logger';
import { html, mailLink } from '../../lib/mail/template';
import { defineMailKind, sendMail } from '../../lib/mailer';
import { formatDay } from '../../lib/payments/payment-mail';

/** Where a shop's customer manages what they bought, across every shop. */
export const storeBillingUrl = () => `${getConfig().webOrigin}/store/orders`;

interface StoreReceiptData {
  shopName: string;
  description: string;
  amount: string;
  chargedOn: string;
  card: string;
  transactionId: string;
  billingUrl: string;
}

/** Every charge gets its receipt: no cooldown, a generous daily cap against a bug looping. */
export const storeSubscriptionReceiptEmail = defineMailKind<StoreReceiptData>({
  name: 'store-subscription-receipt',
  template: ({ shopName, description, amount, chargedOn, card, transactionId, billingUrl }) => {
    const link = mailLink(billingUrl);
    const text = [
      `Thank you for your payment to ${shopName}.`,
      '',
      `${description}: ${amount}`,
      `Charged on ${chargedOn} to ${card}.`,
      `Reference: ${transactionId}`,
      '',
      `Your orders and subscriptions: ${link}`,
      '',
    ].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>Thank you for your payment to ${shopName}.</p>
          <table style="border-collapse:collapse">
            <tr>
              <td style="padding:4px 16px 4px 0">${description}</td>
              <td style="padding:4px 0;font-weight:600">${amount}</td>
            </tr>
          </table>
          <p style="color:#555">Charged on ${chargedOn} to ${card}. Reference: ${transactionId}</p>
          <p><a href="${link}">Your orders and subscriptions</a></p>
        </body>
      </html>`;
    return { subject: `Your receipt from ${shopName}: ${amount}`, text, html: body.markup };
  },
  cooldown: { seconds: 0, message: () => 'A receipt was just sent.' },
  dailyPerAddress: { limit: 50, message: () => 'Too many receipts were sent to this address today.' },
  hourlyOverall: { limit: 50_000, message: () => 'Too many receipts are being sent right now.' },
  unavailableMessage: 'The receipt could not be emailed.',
});

interface StoreCanceledData {
  shopName: string;
  description: string;
  paidThrough: string | null;
  billingUrl: string;
}

export const storeSubscriptionCanceledEmail = defineMailKind<StoreCanceledData>({
  name: 'store-subscription-canceled',
  template: ({ shopName, description, paidThrough, billingUrl }) => {
    const link = mailLink(billingUrl);
    const paid = paidThrough ? `It is paid through ${paidThrough}.` : 'Nothing was paid for it.';
    const text = [
      `Your subscription to ${description} at ${shopName} is canceled: nothing more will be charged.`,
      '',
      paid,
      '',
      `Your orders and subscriptions: ${link}`,
      '',
    ].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>Your subscription to ${description} at ${shopName} is canceled: nothing more will be charged.</p>
          <p>${paid}</p>
          <p><a href="${link}">Your orders and subscriptions</a></p>
        </body>
      </html>`;
    return { subject: `Your subscription at ${shopName} is canceled`, text, html: body.markup };
  },
  cooldown: { seconds: 0, message: () => 'A confirmation was just sent.' },
  dailyPerAddress: { limit: 20, message: () => 'Too many confirmations were sent to this address today.' },
  hourlyOverall: { limit: 20_000, message: () => 'Too many confirmations are being sent right now.' },
  unavailableMessage: 'The confirmation could not be emailed.',
});

/** The verified address of a customer, or null: mail about money goes only where its owner proved they read. */
async function addressOf(db: Db, customerId: string): Promise<string | null> {
  const user = await getUser(db, { userId: customerId });
  return user?.email && user.emailVerified ? user.email : null;
}

async function sendQuietly(what: string, send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (error) {
    logger.warn('A store subscription email was not sent', { what, errorName: (error as Error).name });
  }
}

/** One receipt per charge, each marked sent on its payment item. */
export async function sendStoreReceipts(db: Db, shopName: string, payments: readonly PaymentItem[], now: Date): Promise<void> {
  const customerId = payments[0]?.customerId;
  if (!customerId) return;
  const to = await addressOf(db, customerId);
  if (!to) return;
  for (const payment of payments) {
    await sendQuietly('store-subscription-receipt', async () => {
      await sendMail(db, storeSubscriptionReceiptEmail, {
        to,
        now,
        data: () => ({
          shopName,
          description: payment.description,
          amount: formatMoney({ amountMinor: payment.amountMinor, currency: payment.currency }),
          chargedOn: formatDay(payment.chargedAt),
          card: payment.cardType && payment.last4 ? `${payment.cardType} ending ${payment.last4}` : 'your card',
          transactionId: payment.transactionId,
          billingUrl: storeBillingUrl(),
        }),
      });
      await db.entities.payment.patch({ transactionId: payment.transactionId }).set({ receiptSentAt: now.toISOString() }).go();
    });
  }
}

export async function confirmStoreCancellation(
  db: Db,
  subscription: SubscriptionItem,
  details: { shopName: string; description: string; now: Date },
): Promise<void> {
  const to = await addressOf(db, subscription.customerId);
  if (!to) return;
  await sendQuietly('store-subscription-canceled', () =>
    sendMail(db, storeSubscriptionCanceledEmail, {
      to,
      now: details.now,
      data: () => ({
        shopName: details.shopName,
        description: details.description,
        paidThrough: subscription.paidThroughDate ? formatDay(subscription.paidThroughDate) : null,
        billingUrl: storeBillingUrl(),
      }),
    }),
  );
}
