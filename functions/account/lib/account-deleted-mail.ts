/**
 * The confirmation that an account was deleted: sent to the address the account had, once the
 * deletion is committed, by the one request whose transaction deleted the user item (a retried
 * or concurrent request finds no account and sends nothing). It says what went and what stayed,
 * and carries no link: every page behind one would need the account that is gone.
 */
import { APP_NAME } from '../../../shared/constants';
import { PLATFORM_SELLER_ID } from '../../lib/payments/pro-plan-access';
import type { SubscriptionItem } from '../../lib/db/entities/subscription';
import type { Db } from '../../lib/db/service';
import { html } from '../../lib/mail/template';
import { defineMailKind, sendMail } from '../../lib/mailer';
import { logger } from '../../lib/logger';

export interface AccountDeletedData {
  username: string;
  /** What each canceled subscription was: "the Pro plan", "a subscription at <shop>". */
  canceled: string[];
  /** The person's own shop, which closed with the account; null when they had none. */
  shopName: string | null;
}

export const DELETED = [
  'your profile and your username (free for anyone to take)',
  'your email address on the account (it can sign up again, as a new account)',
  'your links to outside logins (Google, Twitter)',
  'the people you blocked, and your follows in both directions',
  'your notifications',
  'every session: you are logged out on every device',
];

export function accountDeletedContent({ username, canceled, shopName }: AccountDeletedData) {
  const intro = `Your ${APP_NAME} account @${username} was deleted, as you asked. It cannot be restored.`;
  const canceledLines = canceled.length
    ? [`Canceled, so nothing more will be charged: ${canceled.join(', ')}. Time already paid for is not refunded.`]
    : [];
  const closedLines = shopName
    ? [
        `Your shop "${shopName}" is closed: it is no longer shown to anyone and sells nothing. Its past orders stay in its payment records.`,
      ]
    : [];
  const kept = [
    'Stories you shared and your likes stay, shown without your name.',
    'Reports you made stay with the moderators, with nothing that leads to you.',
  ];
  const text = [
    intro,
    '',
    'Deleted:',
    ...DELETED.map((line) => `- ${line}`),
    '',
    ...canceledLines.flatMap((line) => [line, '']),
    ...closedLines.flatMap((line) => [line, '']),
    'Kept:',
    ...kept.map((line) => `- ${line}`),
    '',
    'If you did not ask for this, reply to this email.',
    '',
  ].join('\n');
  const body = html`<!doctype html>
    <html>
      <body style="font-family:system-ui,sans-serif;line-height:1.5">
        <p>${intro}</p>
        <p>Deleted:</p>
        <ul>
          ${DELETED.map((line) => html`<li>${line}</li>`)}
        </ul>
        ${canceledLines.map((line) => html`<p>${line}</p>`)} ${closedLines.map((line) => html`<p>${line}</p>`)}
        <p>Kept:</p>
        <ul>
          ${kept.map((line) => html`<li>${line}</li>`)}
        </ul>
        <p style="color:#555">If you did not ask for this, reply to this email.</p>
      </body>
    </html>`;
  return { subject: `Your ${APP_NAME} account was deleted`, text, html: body.markup };
}

export const accountDeletedEmail = defineMailKind<AccountDeletedData>({
  name: 'account-deleted',
  template: accountDeletedContent,
  // Sent once per deletion (the deleting transaction decides), so the limits only guard a bug.
  cooldown: { seconds: 0, message: () => 'A confirmation was just sent.' },
  dailyPerAddress: { limit: 10, message: () => 'Too many account confirmations were sent to this address today.' },
  hourlyOverall: { limit: 5_000, message: () => 'Too many account confirmations are being sent right now.' },
  unavailableMessage: 'The confirmation could not be emailed.',
});

/** How the mail names each canceled subscription: the Pro plan, or the shop it was at. */
async function describeCanceled(db: Db, subscriptions: readonly SubscriptionItem[]): Promise<string[]> {
  return Promise.all(
    subscriptions.map(async (subscription) => {
      if (subscription.sellerId === PLATFORM_SELLER_ID) return `the ${APP_NAME} Pro plan`;
      const { data: shop } = await db.entities.merchantAccount.get({ merchantAccountId: subscription.sellerId }).go();
      return shop ? `a subscription at ${shop.shopName}` : 'a subscription at a shop';
    }),
  );
}

/**
 * Sends the confirmation. A mail that cannot go out (or whose facts cannot be read) is logged:
 * it never undoes or fails the deletion, nor hides an error of the clean-up before it.
 */
export async function confirmAccountDeleted(
  db: Db,
  to: string,
  facts: { username: string; canceled: readonly SubscriptionItem[]; shopName: string | null },
): Promise<void> {
  try {
    await sendMail(db, accountDeletedEmail, {
      to,
      data: async () => ({
        username: facts.username,
        shopName: facts.shopName,
        canceled: await describeCanceled(db, facts.canceled),
      }),
    });
  } catch (error) {
    logger.warn('The account deletion confirmation was not sent', { errorName: (error as Error).name });
  }
}
