/**
 * What a subscriber is told about their money, by every seller (the platform for its Pro plan,
 * a shop in its own name): a receipt per successful charge, an email and a notification when a
 * renewal fails (with how long they keep what they pay for), a notification when a payment goes
 * through again, and a confirmation when a subscription is canceled or resumed. The seller's voice
 * (`SellerVoice`) says whom the customer paid and where they manage it. Telling never fails the
 * payment that caused it: a mail that cannot go out is logged, and the payment stands.
 */
import { PAST_DUE_GRACE_DAYS } from '../../../shared/payments/grace';
import {
  CONFIRMATION_LIMITS,
  formatDay,
  RECEIPT_LIMITS,
  type ReceiptFacts,
  receiptContent,
  sendQuietly,
  sendReceiptMails,
  verifiedAddressOf,
} from './mail-parts';
import { PLATFORM_SELLER_ID } from './pro-plan-access';
import { formatMoney } from '../../../shared/payments/money';
import type { NotificationKind } from '../../../shared/schemas/notifications';
import type { PaymentItem } from '../db/entities/payment';
import type { SubscriptionItem } from '../db/entities/subscription';
import type { Db } from '../db/service';
import { logger } from '../logger';
import { html, mailLink } from '../mail/template';
import { defineMailKind, sendMail } from '../mailer';
import { PLATFORM_ACTOR_ID, recordNotification } from '../notifications';
import { pushUnseenCounts } from '../realtime';
import { entitlementEndsAt } from './entitlement';

/** Whom a customer paid, as the mails name them, and where they manage what they pay for. */
export interface SellerVoice {
  /** The product's own name for its Pro plan; a shop's name for what it sells. */
  payee: string;
  billingUrl: string;
  /** The words of the link to `billingUrl`. */
  billingLinkWords: string;
}

type ReceiptData = ReceiptFacts & SellerVoice;

export const paymentReceiptEmail = defineMailKind<ReceiptData>({
  name: 'payment-receipt',
  template: ({ payee, billingUrl, billingLinkWords, ...receipt }) => ({
    subject: `Your receipt from ${payee}: ${receipt.amount}`,
    ...receiptContent({ ...receipt, payee, billingUrl, linkWords: billingLinkWords }),
  }),
  ...RECEIPT_LIMITS,
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

interface CanceledData extends SellerVoice {
  description: string;
  /** The last day it is paid for; null when nothing ahead was paid. */
  endsOn: string | null;
}

export const subscriptionCanceledEmail = defineMailKind<CanceledData>({
  name: 'subscription-canceled',
  template: ({ description, payee, endsOn, billingUrl, billingLinkWords }) => {
    const link = mailLink(billingUrl);
    const canceled = `Your subscription to ${description} at ${payee} is canceled: nothing more will be charged.`;
    const keep = endsOn ? `You keep it until ${endsOn}.` : 'Nothing ahead was paid for it: it ends now.';
    const text = [canceled, '', keep, '', `${billingLinkWords}: ${link}`, ''].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>${canceled}</p>
          <p>${keep}</p>
          <p><a href="${link}">${billingLinkWords}</a></p>
        </body>
      </html>`;
    return { subject: `Your subscription at ${payee} is canceled`, text, html: body.markup };
  },
  ...CONFIRMATION_LIMITS,
});

interface ResumedData extends SellerVoice {
  /** The plan's own name ("Transfer Pro"), for the subject. */
  planName: string;
  description: string;
  /** What the next charge takes, formatted; and the day it is taken. */
  amount: string;
  nextChargeOn: string;
  /** "Visa ending in 1111". */
  card: string;
}

export const subscriptionResumedEmail = defineMailKind<ResumedData>({
  name: 'subscription-resumed',
  template: ({ planName, description, payee, amount, nextChargeOn, card, billingUrl, billingLinkWords }) => {
    const link = mailLink(billingUrl);
    const backOn = `Your subscription to ${description} at ${payee} is back on. Nothing was charged today.`;
    const next = `The next charge is ${amount} on ${nextChargeOn}, to your ${card}, and then as before.`;
    const text = [backOn, '', next, '', `${billingLinkWords}: ${link}`, ''].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>${backOn}</p>
          <p>${next}</p>
          <p><a href="${link}">${billingLinkWords}</a></p>
        </body>
      </html>`;
    return { subject: `Your ${planName} plan is back on`, text, html: body.markup };
  },
  ...CONFIRMATION_LIMITS,
});

/** What the log says of a payment email that could not go out. */
const NOT_SENT = 'A payment email was not sent';

/** One receipt per charge, each marked sent on its payment item. */
export async function sendReceipts(db: Db, voice: SellerVoice, payments: readonly PaymentItem[], now: Date): Promise<void> {
  await sendReceiptMails(db, payments, now, {
    kind: paymentReceiptEmail,
    warning: NOT_SENT,
    what: 'receipt',
    data: (receipt) => ({ ...receipt, ...voice }),
  });
}

export async function tellPaymentFailed(
  db: Db,
  subscription: SubscriptionItem,
  details: { description: string; graceEndsAt: Date; billingUrl: string; now: Date },
): Promise<void> {
  await notify(db, subscription, 'subscription-payment-failed', details.description, details.now);
  const to = await verifiedAddressOf(db, subscription.customerId);
  if (!to) return;
  await sendQuietly(NOT_SENT, 'payment-failed', () =>
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

/** Told by whoever applies the cancellation first (the route, or the gateway's webhook racing it): once. */
export async function confirmCancellation(
  db: Db,
  voice: SellerVoice,
  subscription: SubscriptionItem,
  details: { description: string; now: Date },
): Promise<void> {
  const to = await verifiedAddressOf(db, subscription.customerId);
  if (!to) return;
  const endsAt = entitlementEndsAt(subscription, PAST_DUE_GRACE_DAYS);
  await sendQuietly(NOT_SENT, 'subscription-canceled', () =>
    sendMail(db, subscriptionCanceledEmail, {
      to,
      now: details.now,
      data: () => ({
        ...voice,
        description: details.description,
        endsOn: endsAt && endsAt.getTime() > details.now.getTime() ? formatDay(new Date(endsAt.getTime() - 1)) : null,
      }),
    }),
  );
}

/**
 * Told by the one call that resumed the subscription (resumeOnce's `resumedNow`): when the first
 * charge of the resumed plan falls, and how much it is.
 */
export async function confirmResume(
  db: Db,
  voice: SellerVoice,
  subscription: SubscriptionItem,
  details: { planName: string; description: string; nextChargeOn: string; now: Date },
): Promise<void> {
  const to = await verifiedAddressOf(db, subscription.customerId);
  if (!to) return;
  await sendQuietly(NOT_SENT, 'subscription-resumed', () =>
    sendMail(db, subscriptionResumedEmail, {
      to,
      now: details.now,
      data: () => ({
        ...voice,
        planName: details.planName,
        description: details.description,
        amount: formatMoney({ amountMinor: subscription.priceMinor, currency: subscription.currency }),
        nextChargeOn: formatDay(details.nextChargeOn),
        card: `${subscription.paymentMethod.cardType} ending in ${subscription.paymentMethod.last4}`,
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
