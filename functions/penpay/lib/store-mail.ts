/**
 * What the two sides of a shop's order are told once it is paid: the customer a receipt in the
 * shop's name and a notification that the order is confirmed; the merchant a sale notice (who
 * bought what, to deliver it) and a notification with the buyer as its actor. A payment that took
 * only part of an order (a subscription declined after the one-time items were paid) is told as
 * what it is: a receipt for what was charged, naming what is still to pay.
 *
 * Telling never fails the payment that caused it: whatever cannot be sent or recorded is logged,
 * and the order stands.
 */
import { formatMoney } from '../../../shared/payments/money';
import { getConfig } from '../../lib/config';
import type { MerchantAccountItem } from '../../lib/db/entities/merchant-account';
import type { Db } from '../../lib/db/service';
import { getUser, verifiedEmailOfUser } from '../../lib/db/users';
import { logger } from '../../lib/logger';
import { html, mailLink } from '../../lib/mail/template';
import { defineMailKind, sendMail } from '../../lib/mailer';
import { PLATFORM_ACTOR_ID, recordNotification } from '../../lib/notifications';
import { formatDay } from '../../lib/payments/mail-parts';
import { pushUnseenCounts } from '../../lib/realtime';
import type { SellerVoice } from '../../lib/payments/payment-mail';

/** Where a merchant sees their sales. */
/** Where a shop's customer manages what they bought, across every shop. */
export const storeBillingUrl = () => `${getConfig().webOrigin}/store/orders`;

/** A shop's mails about money are in the shop's name: it is whom the customer paid. */
export const storeVoice = (shopName: string): SellerVoice => ({
  payee: shopName,
  billingUrl: storeBillingUrl(),
  billingLinkWords: 'Your orders and subscriptions',
});

export const merchantDashboardUrl = () => `${getConfig().webOrigin}/merchant`;

/** A line of a receipt or a sale notice: what, how many, what it cost now, and what it costs later if it renews. */
export interface OrderMailLine {
  description: string;
  quantity: number;
  amount: string;
  /** "then $9.00 every month", for a subscription. */
  renews: string | null;
  /** "$3.00 off with SPRING", for a line a discount code took something off. */
  saving?: string | null;
}

interface StoreOrderReceiptData {
  shopName: string;
  lines: OrderMailLine[];
  total: string;
  chargedOn: string;
  card: string;
  reference: string;
  /** What the order still holds that was not charged (its card was declined). */
  pending: string[];
  /** The names of the files the paid grades deliver: downloaded from the orders page, never from the mail. */
  downloads: string[];
  ordersUrl: string;
}

const lineText = (line: OrderMailLine) =>
  `${line.description}${line.quantity > 1 ? ` × ${line.quantity}` : ''}: ${line.amount}${line.saving ? ` (${line.saving})` : ''}${line.renews ? `, ${line.renews}` : ''}`;

function linesHtml(lines: readonly OrderMailLine[]) {
  return lines.map(
    (line) =>
      html`<tr>
        <td style="padding:4px 16px 4px 0">${line.description}${line.quantity > 1 ? ` × ${line.quantity}` : ''}</td>
        <td style="padding:4px 0;font-weight:600">
          ${line.amount}${line.saving ? html` <span style="font-weight:400;color:#2a7">(${line.saving})</span>` : ''}
        </td>
        <td style="padding:4px 0 4px 16px;color:#555">${line.renews ?? ''}</td>
      </tr>`,
  );
}

const pendingText = (pending: readonly string[]) =>
  pending.length > 0 ? `Not charged yet: ${pending.join(', ')}. Pay for it from your cart to complete the order.` : '';

const DOWNLOADS_INTRO = 'Your order includes these files, ready on your orders page:';

/** Every paid order gets its receipt: no cooldown, a generous daily cap against a bug looping. */
export const storeOrderReceiptEmail = defineMailKind<StoreOrderReceiptData>({
  name: 'store-order-receipt',
  template: ({ shopName, lines, total, chargedOn, card, reference, pending, downloads, ordersUrl }) => {
    const link = mailLink(ordersUrl);
    const text = [
      `Thank you for your order at ${shopName}.`,
      '',
      ...lines.map(lineText),
      `Charged: ${total}`,
      `Charged on ${chargedOn} to ${card}. Order reference: ${reference}`,
      ...(pending.length > 0 ? ['', pendingText(pending)] : []),
      ...(downloads.length > 0 ? ['', DOWNLOADS_INTRO, ...downloads.map((name) => `- ${name}`), `Download them: ${link}`] : []),
      '',
      `Your orders and subscriptions: ${link}`,
      '',
    ].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>Thank you for your order at ${shopName}.</p>
          <table style="border-collapse:collapse">
            ${linesHtml(lines)}
            <tr>
              <td style="padding:8px 16px 4px 0">Charged</td>
              <td style="padding:8px 0 4px;font-weight:700">${total}</td>
            </tr>
          </table>
          <p style="color:#555">Charged on ${chargedOn} to ${card}. Order reference: ${reference}</p>
          ${pending.length > 0 ? html`<p><strong>${pendingText(pending)}</strong></p>` : ''}
          ${
            downloads.length > 0
              ? html`<p>${DOWNLOADS_INTRO}</p>
                  <ul>
                    ${downloads.map((name) => html`<li>${name}</li>`)}
                  </ul>
                  <p><a href="${link}">Download them from your orders</a></p>`
              : ''
          }
          <p><a href="${link}">Your orders and subscriptions</a></p>
        </body>
      </html>`;
    return { subject: `Your receipt from ${shopName}: ${total}`, text, html: body.markup };
  },
  cooldown: { seconds: 0, message: () => 'A receipt was just sent.' },
  dailyPerAddress: { limit: 50, message: () => 'Too many receipts were sent to this address today.' },
  hourlyOverall: { limit: 50_000, message: () => 'Too many receipts are being sent right now.' },
  unavailableMessage: 'The receipt could not be emailed.',
});

interface StoreSaleNoticeData {
  shopName: string;
  customer: string;
  lines: OrderMailLine[];
  total: string;
  paidOn: string;
  reference: string;
  pending: string[];
  dashboardUrl: string;
}

/** A busy shop sells all day: no cooldown, and a daily cap far above any real shop's orders. */
export const storeSaleNoticeEmail = defineMailKind<StoreSaleNoticeData>({
  name: 'store-sale-notice',
  template: ({ shopName, customer, lines, total, paidOn, reference, pending, dashboardUrl }) => {
    const link = mailLink(dashboardUrl);
    const text = [
      `${customer} bought from ${shopName}.`,
      '',
      ...lines.map(lineText),
      `Paid: ${total}, on ${paidOn}. Order reference: ${reference}`,
      ...(pending.length > 0 ? ['', `Not paid yet (the card was declined): ${pending.join(', ')}.`] : []),
      '',
      `Your sales: ${link}`,
      '',
    ].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>${customer} bought from ${shopName}.</p>
          <table style="border-collapse:collapse">
            ${linesHtml(lines)}
            <tr>
              <td style="padding:8px 16px 4px 0">Paid</td>
              <td style="padding:8px 0 4px;font-weight:700">${total}</td>
            </tr>
          </table>
          <p style="color:#555">Paid on ${paidOn}. Order reference: ${reference}</p>
          ${pending.length > 0 ? html`<p>Not paid yet (the card was declined): ${pending.join(', ')}.</p>` : ''}
          <p><a href="${link}">Your sales</a></p>
        </body>
      </html>`;
    return { subject: `New order at ${shopName}: ${total}`, text, html: body.markup };
  },
  cooldown: { seconds: 0, message: () => 'A sale notice was just sent.' },
  dailyPerAddress: { limit: 2_000, message: () => 'Too many sale notices were sent to this address today.' },
  hourlyOverall: { limit: 50_000, message: () => 'Too many sale notices are being sent right now.' },
  unavailableMessage: 'The sale notice could not be emailed.',
});

async function quietly(what: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    logger.warn('An order was paid but telling of it failed', { what, errorName: (error as Error).name });
  }
}

/** What one payment of an order charged, for the telling. */
export interface OrderCharged {
  merchant: MerchantAccountItem;
  customer: { id: string; name: string; email: string | null };
  invoiceId: string;
  /** The lines this payment charged (none when it only found charges told before: then only a completed order is told). */
  lines: OrderMailLine[];
  totalMinor: number;
  currency: string;
  card: { cardType: string; last4: string } | null;
  chargedAt: string;
  /** Lines of the order this payment did not charge; empty when the order is complete. */
  pending: string[];
  /** The names of the files the charged grades deliver (digital products). */
  downloads: string[];
  /** The object of the merchant's notification: the (first) product bought. */
  productTitle: string;
  now: Date;
}

/**
 * The receipt and the sale notice (to verified addresses only: mail about money goes where its
 * owner proved they read), and the notifications: the customer's only once the whole order is
 * paid, the merchant's for any payment (they have something to deliver either way).
 */
export async function tellOrderPaid(db: Db, order: OrderCharged): Promise<void> {
  const total = formatMoney({ amountMinor: order.totalMinor, currency: order.currency });
  const complete = order.pending.length === 0;
  const charged = order.lines.length > 0;
  await Promise.all([
    quietly('store-order-receipt', async () => {
      if (!charged) return;
      const user = await getUser(db, { userId: order.customer.id });
      const to = user ? verifiedEmailOfUser(user) : null;
      if (!to) return;
      await sendMail(db, storeOrderReceiptEmail, {
        to,
        now: order.now,
        data: () => ({
          shopName: order.merchant.shopName,
          lines: order.lines,
          total,
          chargedOn: formatDay(order.chargedAt),
          card: order.card ? `${order.card.cardType} ending ${order.card.last4}` : 'your card',
          reference: order.invoiceId,
          pending: order.pending,
          downloads: order.downloads,
          ordersUrl: storeBillingUrl(),
        }),
      });
    }),
    quietly('store-sale-notice', async () => {
      if (!charged) return;
      const owner = await getUser(db, { userId: order.merchant.ownerId });
      const to = owner ? verifiedEmailOfUser(owner) : null;
      if (!to) return;
      await sendMail(db, storeSaleNoticeEmail, {
        to,
        now: order.now,
        data: () => ({
          shopName: order.merchant.shopName,
          customer: order.customer.email ? `${order.customer.name} (${order.customer.email})` : order.customer.name,
          lines: order.lines,
          total,
          paidOn: formatDay(order.chargedAt),
          reference: order.invoiceId,
          pending: order.pending,
          dashboardUrl: merchantDashboardUrl(),
        }),
      });
    }),
    ...(complete
      ? [
          quietly('store-order-confirmed', () =>
            notify(db, {
              recipientId: order.customer.id,
              actorId: PLATFORM_ACTOR_ID,
              kind: 'store-order-confirmed',
              title: order.merchant.shopName,
              invoiceId: order.invoiceId,
              byPlatform: true,
              now: order.now,
            }),
          ),
        ]
      : []),
    quietly('store-sale', async () => {
      if (!charged) return;
      await notify(db, {
        recipientId: order.merchant.ownerId,
        actorId: order.customer.id,
        kind: 'store-sale',
        title: order.productTitle,
        invoiceId: order.invoiceId,
        byPlatform: false,
        now: order.now,
      });
    }),
  ]);
}

async function notify(
  db: Db,
  event: {
    recipientId: string;
    actorId: string;
    kind: 'store-order-confirmed' | 'store-sale';
    title: string;
    invoiceId: string;
    byPlatform: boolean;
    now: Date;
  },
): Promise<void> {
  const writes = await recordNotification(db, {
    recipientId: event.recipientId,
    actorId: event.actorId,
    kind: event.kind,
    app: 'store',
    object: { type: 'store-order', id: event.invoiceId, title: event.title },
    at: event.now,
    byPlatform: event.byPlatform,
  });
  if (writes) await pushUnseenCounts(db, event.recipientId);
}
