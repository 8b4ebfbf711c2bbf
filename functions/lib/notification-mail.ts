import { APP_NAME } from '../../shared/constants';
import { DEFAULT_EMAIL_PREFERENCES, type EmailPreferences } from '../../shared/schemas/account';
import type { NotificationKind } from '../../shared/schemas/notifications';
import { getConfig } from './config';
import type { Db } from './db/service';
import { getUser } from './db/users';
import { RateLimited } from './errors';
import { logger } from './logger';
import { html, mailLink } from './mail/template';
import { defineMailKind, sendMail } from './mailer';
import type { NotificationEvent, NotificationWrites } from './notifications';
import { defineTokenPurpose, issueToken } from './one-time-tokens';

/** Where the unsubscribe link of a notification email leads (the web page) and posts (RFC 8058). */
export const UNSUBSCRIBE_PAGE_PATH = '/unsubscribe';
export const UNSUBSCRIBE_API_PATH = '/api/i/user/email/unsubscribe';

/**
 * The token in a notification email's unsubscribe link. Read, never spent: the link works as
 * often as it is clicked, for a year, and only ever turns notification emails off.
 */
export const UNSUBSCRIBE_TOKEN = defineTokenPurpose<{ userId: string }>('unsubscribe-notifications', {
  lifetimeSeconds: 365 * 24 * 3600,
});

interface NotificationMailData {
  line: string;
  notificationsUrl: string;
  /** The page with the button (for people). */
  unsubscribeUrl: string;
  /** The API a mail client posts to on "Unsubscribe" (RFC 8058 one-click). */
  oneClickUnsubscribeUrl: string;
}

/** What happened, in one line of the mail, by the notification's kind. */
export function describeEvent(
  kind: NotificationKind,
  actorName: string,
  title: string | undefined,
  detail?: string | undefined,
): string {
  const story = title ? `your story “${title}”` : 'your story';
  switch (kind) {
    case 'story-liked':
      return `${actorName} liked ${story}.`;
    case 'user-followed':
      return `${actorName} started following you.`;
    case 'story-author-claimed':
      return `${actorName} says they wrote ${title ? `“${title}”` : 'a story you shared'}.`;
    case 'story-review-accepted':
      return `${title ? `“${title}”` : 'Your story'} was accepted in the ${APP_NAME} editorial review.`;
    case 'publication-rose':
      return `${title ?? 'A publication you follow'} ${detail ?? 'moved up the rankings'}.`;
    case 'transfer-received':
      return `${actorName} sent you ${title ? `“${title}”` : 'files'}.`;
    case 'transfer-downloaded':
      return `${actorName} downloaded ${title ? `“${title}”` : 'the files you sent'}.`;
    case 'transfer-request-upload':
      return `${title ? `Through your request “${title}”: ` : ''}${detail ?? 'Someone sent you files'}.`;
    case 'transfer-download-limit-reached':
      return `${title ? `“${title}”` : 'Your transfer'} reached its download limit.`;
    case 'subscription-payment-failed':
      return `The payment for ${title ?? 'your subscription'} did not go through: update your card to keep it.`;
    case 'subscription-payment-recovered':
      return `The payment for ${title ?? 'your subscription'} went through: it is active again.`;
    case 'store-order-confirmed':
      return `Your order ${title ? `at ${title} ` : ''}is paid.`;
    case 'store-sale':
      return `${actorName} bought ${title ? `“${title}”` : 'from your shop'}.`;
    case 'store-refund':
      return `${title ?? 'A shop'} refunded ${detail ?? 'your order'}.`;
    case 'subscription-refunded':
      return `${detail ?? 'A payment'} of ${title ?? 'your subscription'} was refunded.`;
    case 'story-commented':
      return `${actorName} commented on ${story}${detail ? `: “${detail}”` : '.'}`;
    case 'comment-replied':
      return `${actorName} replied to your comment${title ? ` on “${title}”` : ''}${detail ? `: “${detail}”` : '.'}`;
  }
}

/**
 * One notification email per address per 10 minutes and 20 a day: a burst of likes is one
 * mail, and the rest waits in the notification centre.
 */
export const notificationEmail = defineMailKind<NotificationMailData>({
  name: 'notification-email',
  template: ({ line, notificationsUrl, unsubscribeUrl, oneClickUnsubscribeUrl }) => {
    const notifications = mailLink(notificationsUrl);
    const unsubscribe = mailLink(unsubscribeUrl);
    const text = [line, '', `See your notifications: ${notifications}`, '', `Stop these emails: ${unsubscribe}`, ''].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>${line}</p>
          <p><a href="${notifications}">See your notifications</a></p>
          <p style="color:#555;font-size:14px">
            You get these emails because notification emails are on in your ${APP_NAME} email preferences.
            <a href="${unsubscribe}">Stop these emails</a>.
          </p>
        </body>
      </html>`;
    return {
      subject: line.replace(/\.$/, ''),
      text,
      html: body.markup,
      headers: {
        'List-Unsubscribe': `<${mailLink(oneClickUnsubscribeUrl)}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    };
  },
  cooldown: { seconds: 600, message: () => 'A notification email was sent to this address a moment ago.' },
  dailyPerAddress: { limit: 20, message: () => 'This address has had its notification emails for today.' },
  hourlyOverall: { limit: 5_000, message: () => 'Too many notification emails are being sent right now.' },
  unavailableMessage: 'The notification email could not be sent.',
});

function wantsNotificationEmails(preferences: unknown): boolean {
  const stored = (preferences ?? {}) as Partial<EmailPreferences>;
  return stored.notificationEmails ?? DEFAULT_EMAIL_PREFERENCES.notificationEmails;
}

/**
 * Emails the recipient about a notification that was just written, when it started a new one
 * (an event joining an unseen notification says nothing new) and they have a verified address
 * and notification emails on. Never fails the request that caused it: the notification is in
 * the centre either way, so a refused or failed send is logged and dropped.
 */
export async function mailNotification(
  db: Db,
  writes: NotificationWrites | null,
  event: Pick<NotificationEvent, 'kind' | 'actorId' | 'object'>,
): Promise<boolean> {
  const recipient = writes?.startsGroup ? writes.recipient : undefined;
  if (!recipient?.email || !recipient.emailVerified || !wantsNotificationEmails(recipient.emailPreferences)) return false;
  try {
    const actor = await getUser(db, { userId: event.actorId });
    const actorName = actor?.name || actor?.username || 'Someone';
    const origin = getConfig().webOrigin;
    await sendMail(db, notificationEmail, {
      to: recipient.email,
      data: async () => {
        const { token } = await issueToken(db, UNSUBSCRIBE_TOKEN, { payload: { userId: recipient.userId } });
        return {
          line: describeEvent(event.kind, actorName, event.object.title, event.object.detail),
          notificationsUrl: `${origin}/notifications`,
          unsubscribeUrl: `${origin}${UNSUBSCRIBE_PAGE_PATH}?token=${token}`,
          oneClickUnsubscribeUrl: `${origin}${UNSUBSCRIBE_API_PATH}?token=${token}`,
        };
      },
    });
    return true;
  } catch (error) {
    if (error instanceof RateLimited) return false;
    logger.warn('Could not email a notification', { kind: event.kind, errorName: (error as Error).name });
    return false;
  }
}
