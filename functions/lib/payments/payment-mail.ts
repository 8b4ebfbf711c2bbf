/**
 * What a subscriber is told about their money: a receipt per successful charge, an email and a
 * notification when a renewal fails (with how long they keep what they pay for), a notification
 * when a payment goes through again, and a confirmation when they cancel. Telling never fails
 * the payment that caused it: a mail that cannot go out is logged, and the payment stands.
 */
import { PLATFORM_SELLER_ID } from './pro-plan-access';
import { APP_NAME } from '../../../shared/constants';
import { formatMoney } from '../../../shared/payments/money';
import type { NotificationKind } from '../../../shared/schemas/notifications';
import type { PaymentItem } from '../db/entities/payment';
import type { SubscriptionItem } from '../db/entities/subscription';
import type { Db } from '../db/service';
import { getUser } from '../db/users';
import { logger } from '../logger';
import { html, mailLink } from '../mail/template';
import { defineMailKind, sendMail } from '../mailer';
import { PLATFORM_ACTOR_ID, recordNotification } from '../notifications';
import { pushUnseenCounts } from '../realtime';

interface ReceiptData {
  description: string;
  amount: string;
  chargedOn: string;
  card: string;
  transactionId: string;
  billingUrl: string;
}

/** Every charge gets its receipt: no cooldown, a generous daily cap against a bug looping. */
export const paymentReceiptEmail = defineMailKind<ReceiptData>({
  name: 'payment-receipt',
  template: ({ description, amount, chargedOn, card, transactionId, billingUrl }) => {
    const link = mailLink(billingUrl);
    const text = [
      `Thank you for your payment to ${APP_NAME}.`,
      '',
      `${description}: ${amount}`,
      `Charged on ${chargedOn} to ${card}.`,
      `Reference: ${transactionId}`,
      '',
      `Your subscription and past payments: ${link}`,
      '',
    ].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>Thank you for your payment to ${APP_NAME}.</p>
          <table style="border-collapse:collapse">
            <tr>
              <td style="padding:4px 16px 4px 0">${description}</td>
              <td style="padding:4px 0;font-weight:600">${amount}</td>
            </tr>
          </table>
          <p style="color:#555">Charged on ${chargedOn} to ${card}. Reference: ${transactionId}</p>
          <p><a href="${link}">Your subscription and past payments</a></p>
        </body>
      </html>`;
    return { subject: `Your ${APP_NAME} receipt: ${amount}`, text, html: body.markup };
  },
  cooldown: { seconds: 0, message: () => 'A receipt was just sent.' },
  dailyPerAddress: { limit: 50, message: () => 'Too many receipts were sent to this address today.' },
  hourlyOverall: { limit: 50_000, message: () => 'Too many receipts are being sent right now.' },
  unavailableMessage: 'The receipt could not be emailed.',
});

interface PastDueData {
  description: string;
  amount: string;
  graceEndsOn: string;
  billingUrl: string;
}

export const paymentFailedEmail = defineMailKind<PastDueData>({
  name: 'payment-failed',
  template: ({ description, amount, graceEndsOn, billingUrl }) => {
    const link = mailLink(billingUrl);
    const text = [
      `The payment of ${amount} for ${description} did not go through.`,
      '',
      `You keep everything it gives you until ${graceEndsOn}. Update your card before then and we will charge it straight away:`,
      link,
      '',
    ].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>The payment of ${amount} for ${description} did not go through.</p>
          <p>
            You keep everything it gives you until ${graceEndsOn}. Update your card before then and we will charge it straight
            away.
          </p>
          <p><a href="${link}">Update your card</a></p>
        </body>
      </html>`;
    return { subject: `Your payment for ${description} failed`, text, html: body.markup };
  },
  cooldown: { seconds: 3_600, message: () => 'We just emailed this address about a failed payment.' },
  hourlyOverall: { limit: 20_000, message: () => 'Too many payment emails are being sent right now.' },
  unavailableMessage: 'The email about the failed payment could not be sent.',
});

interface CanceledData {
  description: string;
  endsOn: string;
  billingUrl: string;
}

export const subscriptionCanceledEmail = defineMailKind<CanceledData>({
  name: 'subscription-canceled',
  template: ({ description, endsOn, billingUrl }) => {
    const link = mailLink(billingUrl);
    const text = [
      `Your ${description} subscription is canceled: nothing more will be charged.`,
      '',
      `You keep it until ${endsOn}.`,
      '',
      `Changed your mind? Subscribe again any time: ${link}`,
      '',
    ].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>Your ${description} subscription is canceled: nothing more will be charged.</p>
          <p>You keep it until ${endsOn}.</p>
          <p><a href="${link}">Your subscription</a></p>
        </body>
      </html>`;
    return { subject: `Your ${description} subscription is canceled`, text, html: body.markup };
  },
  cooldown: { seconds: 0, message: () => 'A confirmation was just sent.' },
  dailyPerAddress: { limit: 20, message: () => 'Too many confirmations were sent to this address today.' },
  hourlyOverall: { limit: 20_000, message: () => 'Too many confirmations are being sent right now.' },
  unavailableMessage: 'The confirmation could not be emailed.',
});

/** "November 26, 2026", for a YYYY-MM-DD day or an instant. */
export function formatDay(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value.length === 10 ? `${value}T12:00:00Z` : value) : value;
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** The verified address of a customer, or null: mail about money goes only where its owner proved they read. */
async function addressOf(db: Db, customerId: string): Promise<string | null> {
  const user = await getUser(db, { userId: customerId });
  return user?.email && user.emailVerified ? user.email : null;
}

async function sendQuietly(what: string, send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (error) {
    logger.warn('A payment email was not sent', { what, errorName: (error as Error).name });
  }
}

export async function sendReceipts(db: Db, payments: readonly PaymentItem[], billingUrl: string, now: Date): Promise<void> {
  if (payments.length === 0) return;
  const customerId = payments[0]?.customerId;
  const to = customerId ? await addressOf(db, customerId) : null;
  if (!to) return;
  for (const payment of payments) {
    await sendQuietly('receipt', async () => {
      await sendMail(db, paymentReceiptEmail, {
        to,
        now,
        data: () => ({
          description: payment.description,
          amount: formatMoney({ amountMinor: payment.amountMinor, currency: payment.currency }),
          chargedOn: formatDay(payment.chargedAt),
          card: payment.cardType && payment.last4 ? `${payment.cardType} ending ${payment.last4}` : 'your card',
          transactionId: payment.transactionId,
          billingUrl,
        }),
      });
      await db.entities.payment.patch({ transactionId: payment.transactionId }).set({ receiptSentAt: now.toISOString() }).go();
    });
  }
}

export async function tellPaymentFailed(
  db: Db,
  subscription: SubscriptionItem,
  details: { description: string; graceEndsAt: Date; billingUrl: string; now: Date },
): Promise<void> {
  await notify(db, subscription, 'subscription-payment-failed', details.description, details.now);
  const to = await addressOf(db, subscription.customerId);
  if (!to) return;
  await sendQuietly('payment-failed', () =>
    sendMail(db, paymentFailedEmail, {
      to,
      now: details.now,
      data: () => ({
        description: details.description,
        amount: formatMoney({
          amountMinor: subscription.balanceMinor || subscription.priceMinor,
          currency: subscription.currency,
        }),
        graceEndsOn: formatDay(details.graceEndsAt),
        billingUrl: details.billingUrl,
      }),
    }),
  );
}

export async function tellPaymentRecovered(
  db: Db,
  subscription: SubscriptionItem,
  description: string,
  now: Date,
): Promise<void> {
  await notify(db, subscription, 'subscription-payment-recovered', description, now);
}

export async function confirmCancellation(
  db: Db,
  subscription: SubscriptionItem,
  details: { description: string; endsAt: Date | null; billingUrl: string; now: Date },
): Promise<void> {
  const to = await addressOf(db, subscription.customerId);
  if (!to) return;
  await sendQuietly('subscription-canceled', () =>
    sendMail(db, subscriptionCanceledEmail, {
      to,
      now: details.now,
      data: () => ({
        description: details.description,
        endsOn: details.endsAt ? formatDay(new Date(details.endsAt.getTime() - 1)) : formatDay(details.now),
        billingUrl: details.billingUrl,
      }),
    }),
  );
}

/** A notification from the platform itself, and a push to the subscriber's open tabs. */
async function notify(db: Db, subscription: SubscriptionItem, kind: NotificationKind, title: string, now: Date): Promise<void> {
  try {
    const writes = await recordNotification(db, {
      recipientId: subscription.customerId,
      actorId: PLATFORM_ACTOR_ID,
      kind,
      // The Pro plan is the transfer app's; any other seller is a shop of the storefront.
      app: subscription.sellerId === PLATFORM_SELLER_ID ? 'transfer' : 'store',
      object: { type: 'subscription', id: subscription.subscriptionId, title },
      at: now,
      byPlatform: true,
    });
    if (writes) await pushUnseenCounts(db, subscription.customerId);
  } catch (error) {
    logger.warn('A subscription notification was not recorded', { kind, errorName: (error as Error).name });
  }
}
