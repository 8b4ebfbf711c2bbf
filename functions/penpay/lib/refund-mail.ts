/**
 * What a customer is told once a refund of their order went through: a receipt of the refund in
 * the shop's name (to a verified address only) and a notification. Told once, by the request
 * that ended the refund (refund-records.ts); telling never undoes the refund: a failure is logged.
 */
import { formatMoney } from '../../../shared/payments/money';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { StoreOrderItem } from '../../lib/db/entities/store-order';
import type { StoreRefundItem } from '../../lib/db/entities/store-refund';
import type { Db } from '../../lib/db/service';
import { getUser, verifiedEmailOfUser } from '../../lib/db/users';
import { logger } from '../../lib/logger';
import { html, mailLink } from '../../lib/mail/template';
import { defineMailKind, sendMail } from '../../lib/mailer';
import { PLATFORM_ACTOR_ID, recordNotification } from '../../lib/notifications';
import { formatDay } from '../../lib/payments/mail-parts';
import { pushUnseenCounts } from '../../lib/realtime';
import { storeBillingUrl } from './store-mail';

interface StoreRefundReceiptData {
  shopName: string;
  amount: string;
  what: string;
  reason: string;
  how: string;
  reference: string;
  canceled: number;
  ordersUrl: string;
}

/** Every refund gets its receipt: no cooldown, a generous daily cap against a bug looping. */
export const storeRefundReceiptEmail = defineMailKind<StoreRefundReceiptData>({
  name: 'store-refund-receipt',
  template: ({ shopName, amount, what, reason, how, reference, canceled, ordersUrl }) => {
    const link = mailLink(ordersUrl);
    const canceledText =
      canceled > 0
        ? `Your subscription${canceled === 1 ? ' was' : 's were'} canceled with it: nothing more will be charged.`
        : '';
    const text = [
      `${shopName} refunded ${amount} of your order: ${what}.`,
      `Reason: ${reason}`,
      `${how} Order reference: ${reference}`,
      ...(canceledText ? ['', canceledText] : []),
      '',
      `Your orders and subscriptions: ${link}`,
      '',
    ].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>${shopName} refunded <strong>${amount}</strong> of your order: ${what}.</p>
          <p>Reason: ${reason}</p>
          <p style="color:#555">${how} Order reference: ${reference}</p>
          ${canceledText ? html`<p><strong>${canceledText}</strong></p>` : ''}
          <p><a href="${link}">Your orders and subscriptions</a></p>
        </body>
      </html>`;
    return { subject: `Your refund from ${shopName}: ${amount}`, text, html: body.markup };
  },
  cooldown: { seconds: 0, message: () => 'A refund receipt was just sent.' },
  dailyPerAddress: { limit: 50, message: () => 'Too many refund receipts were sent to this address today.' },
  hourlyOverall: { limit: 50_000, message: () => 'Too many refund receipts are being sent right now.' },
  unavailableMessage: 'The refund receipt could not be emailed.',
});

function whatOf(refund: StoreRefundItem, order: StoreOrderItem): string {
  if (refund.scope === 'whole') return 'the whole order';
  if (refund.scope === 'amount') return 'part of its amount';
  return (refund.lineIndexes ?? [])
    .map((index) => order.lines[index])
    .map((line) => (line ? `${line.description}${line.quantity > 1 ? ` × ${line.quantity}` : ''}` : ''))
    .filter(Boolean)
    .join(', ');
}

async function quietly(what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    logger.warn('An order was refunded but telling of it failed', { what, errorName: (error as Error).name });
  }
}

export async function tellRefunded(
  db: Db,
  told: { merchant: MerchantAccountItem; order: StoreOrderItem; refund: StoreRefundItem; now: Date },
): Promise<void> {
  const { merchant, order, refund, now } = told;
  const card = order.card ? `${order.card.cardType} ending ${order.card.last4}` : 'your card';
  const day = formatDay(refund.completedAt ?? now.toISOString());
  const voided = refund.parts.filter((part) => part.status === 'succeeded').every((part) => part.operation === 'void');
  await Promise.all([
    quietly('store-refund-receipt', async () => {
      const user = await getUser(db, { userId: order.customerId });
      const to = user ? verifiedEmailOfUser(user) : null;
      if (!to) return;
      await sendMail(db, storeRefundReceiptEmail, {
        to,
        now,
        data: () => ({
          shopName: merchant.shopName,
          amount: formatMoney({ amountMinor: refund.amountMinor, currency: refund.currency }),
          what: whatOf(refund, order),
          reason: refund.reason,
          // A void is never charged at all; a refund reaches the card in a few days.
          how: voided
            ? `The charge to ${card} was cancelled on ${day} before it went through: it will not appear on your statement.`
            : `Refunded to ${card} on ${day}: it shows within a few business days.`,
          reference: order.invoiceId,
          canceled: refund.canceledSubscriptions ?? 0,
          ordersUrl: storeBillingUrl(),
        }),
      });
    }),
    quietly('store-refund', async () => {
      const writes = await recordNotification(db, {
        recipientId: order.customerId,
        actorId: PLATFORM_ACTOR_ID,
        kind: 'store-refund',
        app: 'store',
        object: {
          type: 'store-order',
          id: refund.refundId,
          title: merchant.shopName,
          detail: formatMoney({ amountMinor: refund.amountMinor, currency: refund.currency }),
        },
        at: now,
        byPlatform: true,
      });
      if (writes) await pushUnseenCounts(db, order.customerId);
    }),
  ]);
}
