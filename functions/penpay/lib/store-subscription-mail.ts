/**
 * What a customer is told about a subscription at a shop, in the shop's name: a receipt for each
 * renewal (and prorated add-on charge), and the confirmation that it was canceled. The payment
 * core's own mails thank the platform, which is not who a shop's customer paid. Telling never
 * fails the change that caused it: a mail that cannot go out is logged, and the change stands.
 */
import { getConfig } from '../../lib/config';
import type { PaymentItem } from '../../lib/db/entities/payment';
import type { SubscriptionItem } from '../../lib/db/entities/subscription';
import type { Db } from '../../lib/db/service';
import { html, mailLink } from '../../lib/mail/template';
import { defineMailKind, sendMail } from '../../lib/mailer';
import {
  CONFIRMATION_LIMITS,
  formatDay,
  RECEIPT_LIMITS,
  type ReceiptFacts,
  receiptContent,
  sendQuietly,
  sendReceiptMails,
  verifiedAddressOf,
} from '../../lib/payments/mail-parts';

/** Where a shop's customer manages what they bought, across every shop. */
export const storeBillingUrl = () => `${getConfig().webOrigin}/store/orders`;

interface StoreReceiptData extends ReceiptFacts {
  shopName: string;
  billingUrl: string;
}

export const storeSubscriptionReceiptEmail = defineMailKind<StoreReceiptData>({
  name: 'store-subscription-receipt',
  template: ({ shopName, billingUrl, ...receipt }) => ({
    subject: `Your receipt from ${shopName}: ${receipt.amount}`,
    ...receiptContent({ ...receipt, payee: shopName, billingUrl, linkWords: 'Your orders and subscriptions' }),
  }),
  ...RECEIPT_LIMITS,
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
  ...CONFIRMATION_LIMITS,
});

/** What the log says of a store subscription email that could not go out. */
const NOT_SENT = 'A store subscription email was not sent';

/** One receipt per charge, each marked sent on its payment item. */
export async function sendStoreReceipts(db: Db, shopName: string, payments: readonly PaymentItem[], now: Date): Promise<void> {
  await sendReceiptMails(db, payments, now, {
    kind: storeSubscriptionReceiptEmail,
    warning: NOT_SENT,
    what: 'store-subscription-receipt',
    data: (receipt) => ({ ...receipt, shopName, billingUrl: storeBillingUrl() }),
  });
}

export async function confirmStoreCancellation(
  db: Db,
  subscription: SubscriptionItem,
  details: { shopName: string; description: string; now: Date },
): Promise<void> {
  const to = await verifiedAddressOf(db, subscription.customerId);
  if (!to) return;
  await sendQuietly(NOT_SENT, 'store-subscription-canceled', () =>
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
