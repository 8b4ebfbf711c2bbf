/**
 * What a person is told once a superuser's refund of their Pro charge went through: a receipt of
 * the refund (to a verified address only) and a notification. Told once, by the request that ended
 * the refund (pro-refunds.ts); telling never undoes the refund: a failure is logged.
 */
import { APP_NAME } from '../../../shared/constants';
import { formatMoney } from '../../../shared/payments/money';
import type { PaymentItem } from '../../lib/db/entities/payment';
import type { ProRefundItem } from '../../lib/db/entities/pro-refund';
import type { Db } from '../../lib/db/service';
import { html, mailLink } from '../../lib/mail/template';
import { defineMailKind, sendMail } from '../../lib/mailer';
import { PLATFORM_ACTOR_ID, recordNotification } from '../../lib/notifications';
import { formatDay, RECEIPT_LIMITS, sendQuietly, verifiedAddressOf } from '../../lib/payments/mail-parts';
import { pushUnseenCounts } from '../../lib/realtime';
import { billingPageUrl } from './pro-offer';

interface ProRefundReceiptData {
  amount: string;
  charge: string;
  reason: string;
  how: string;
  reference: string;
  canceled: boolean;
  billingUrl: string;
}

export const proRefundReceiptEmail = defineMailKind<ProRefundReceiptData>({
  name: 'pro-refund-receipt',
  template: ({ amount, charge, reason, how, reference, canceled, billingUrl }) => {
    const link = mailLink(billingUrl);
    const canceledText = canceled
      ? 'Your Pro plan was canceled with it: nothing more will be charged, and Pro lasts to the end of the time paid for.'
      : '';
    const text = [
      `${APP_NAME} refunded ${amount} of your payment: ${charge}.`,
      `Reason: ${reason}`,
      `${how} Reference: ${reference}`,
      ...(canceledText ? ['', canceledText] : []),
      '',
      `Your subscription and past payments: ${link}`,
      '',
    ].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>${APP_NAME} refunded <strong>${amount}</strong> of your payment: ${charge}.</p>
          <p>Reason: ${reason}</p>
          <p style="color:#555">${how} Reference: ${reference}</p>
          ${canceledText ? html`<p><strong>${canceledText}</strong></p>` : ''}
          <p><a href="${link}">Your subscription and past payments</a></p>
        </body>
      </html>`;
    return { subject: `Your refund from ${APP_NAME}: ${amount}`, text, html: body.markup };
  },
  ...RECEIPT_LIMITS,
  unavailableMessage: 'The refund receipt could not be emailed.',
});

export async function tellProRefunded(db: Db, told: { payment: PaymentItem; refund: ProRefundItem; now: Date }): Promise<void> {
  const { payment, refund, now } = told;
  const amount = formatMoney({ amountMinor: refund.amountMinor, currency: refund.currency });
  const card = payment.cardType && payment.last4 ? `${payment.cardType} ending ${payment.last4}` : 'your card';
  const day = formatDay(refund.completedAt ?? now.toISOString());
  await Promise.all([
    sendQuietly('A Pro charge was refunded but its receipt was not sent', 'pro-refund-receipt', async () => {
      const to = await verifiedAddressOf(db, payment.customerId);
      if (!to) return;
      await sendMail(db, proRefundReceiptEmail, {
        to,
        now,
        data: () => ({
          amount,
          charge: `${payment.description}, ${formatMoney({ amountMinor: payment.amountMinor, currency: payment.currency })} on ${formatDay(payment.chargedAt)}`,
          reason: refund.reason,
          // A void is never charged at all; a refund reaches the card in a few days.
          how:
            refund.operation === 'void'
              ? `The charge to ${card} was cancelled on ${day} before it went through: it will not appear on your statement.`
              : `Refunded to ${card} on ${day}: it shows within a few business days.`,
          reference: payment.transactionId,
          canceled: refund.subscriptionCanceled ?? false,
          billingUrl: billingPageUrl(),
        }),
      });
    }),
    sendQuietly('A Pro charge was refunded but its notification was not recorded', 'subscription-refunded', async () => {
      const writes = await recordNotification(db, {
        recipientId: payment.customerId,
        actorId: PLATFORM_ACTOR_ID,
        kind: 'subscription-refunded',
        app: 'transfer',
        object: { type: 'subscription', id: refund.refundId, title: payment.description, detail: amount },
        at: now,
        byPlatform: true,
      });
      if (writes) await pushUnseenCounts(db, payment.customerId);
    }),
  ]);
}
