import { APP_NAME } from '../../../shared/constants';
import { getConfig } from '../../lib/config';
import type { Db } from '../../lib/db/service';
import type { TransferItem } from '../../lib/db/entities/transfer';
import type { TransferMemberItem } from '../../lib/db/entities/transfer-member';
import type { UserItem } from '../../lib/db/entities/user';
import { getUserByEmail } from '../../lib/db/users';
import { RateLimited } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { html, mailLink } from '../../lib/mail/template';
import { defineMailKind, sendMail } from '../../lib/mailer';
import { recordNotification } from '../../lib/notifications';
import { pushUnseenCounts } from '../../lib/realtime';
import { defineTokenPurpose, issueToken } from '../../lib/one-time-tokens';
import { hashedKeyPart } from '../../lib/rate-limit';

/**
 * The link a recipient is emailed signs them in once (creating their account for that address
 * if they have none) and opens the package. It lives as long as the longest transfer; the
 * transfer's own expiry is checked when it is spent.
 */
export const TRANSFER_INVITE = defineTokenPurpose<{ transferId: string; email: string }>('transfer-invite', {
  lifetimeSeconds: 366 * 24 * 3600,
});

/** Recipients emailed at once while a transfer is sent: a sender's 500 go out in 50 rounds. */
const MAIL_CONCURRENCY = 10;

interface InviteMailData {
  senderName: string;
  title: string;
  message: string;
  fileCount: number;
  availableUntil: string;
  url: string;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * "You received files". Limited per address (a sender cannot flood one inbox) and per sender
 * (nobody mails the world through us): 1,000 recipients an hour.
 */
export const transferInviteEmail = defineMailKind<InviteMailData>({
  name: 'transfer-invite',
  template: ({ senderName, title, message, fileCount, availableUntil, url }) => {
    const link = mailLink(url);
    const what = title ? `“${title}”` : plural(fileCount, 'file');
    const until = availableUntil.slice(0, 10);
    const text = [
      `${senderName} sent you ${what} with ${APP_NAME}.`,
      ...(message ? ['', message] : []),
      '',
      `Open the files: ${link}`,
      '',
      `They can be downloaded until ${until}.`,
      '',
    ].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>${senderName} sent you ${what} with ${APP_NAME}.</p>
          ${message ? html`<p style="white-space:pre-wrap">${message}</p>` : html``}
          <p><a href="${link}">Open the files</a></p>
          <p style="color:#555">They can be downloaded until ${until}.</p>
        </body>
      </html>`;
    return { subject: `${senderName} sent you ${what}`, text, html: body.markup };
  },
  cooldown: { seconds: 1, message: () => 'Files were just sent to this address.' },
  dailyPerAddress: { limit: 100, message: () => 'This address has received too many transfers today.' },
  hourlyOverall: { limit: 20_000, message: () => 'Too many transfers are being sent right now.' },
  unavailableMessage: 'The email to a recipient could not be sent.',
});

export const downloadReceiptEmail = defineMailKind<{ recipient: string; title: string; url: string }>({
  name: 'transfer-download-receipt',
  template: ({ recipient, title, url }) => {
    const link = mailLink(url);
    const what = title ? `“${title}”` : 'the files you sent';
    const text = [`${recipient} downloaded ${what}.`, '', `See who downloaded what: ${link}`, ''].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>${recipient} downloaded ${what}.</p>
          <p><a href="${link}">See who downloaded what</a></p>
        </body>
      </html>`;
    return { subject: `${recipient} downloaded ${what}`, text, html: body.markup };
  },
  cooldown: { seconds: 1, message: () => 'A receipt was just sent.' },
  dailyPerAddress: { limit: 500, message: () => 'Too many receipts today.' },
  hourlyOverall: { limit: 20_000, message: () => 'Too many receipts are being sent right now.' },
  unavailableMessage: 'The download receipt could not be sent.',
});

const senderLimit = (senderId: string) => ({
  kind: 'window' as const,
  key: `transfer-invite:sender:${hashedKeyPart(senderId)}`,
  windowSeconds: 3600,
  limit: 1_000,
  message: () => 'You have emailed a great many recipients this hour. Try again later.',
});

export const inviteUrl = (transferId: string, token: string) =>
  `${getConfig().webOrigin}/transfer/${encodeURIComponent(transferId)}/package#invite=${token}`;

/**
 * Tells recipients a transfer is theirs: an email with their link, and for those who already
 * have an account a notification too. A failed or refused email is logged and leaves the
 * recipient un-notified (the sender's view shows it), it never undoes the send. Answers the
 * addresses that were emailed.
 */
export async function notifyRecipients(
  db: Db,
  transfer: TransferItem,
  sender: UserItem,
  members: readonly TransferMemberItem[],
  now: Date,
): Promise<string[]> {
  const emailed: string[] = [];
  const queue = [...members];
  const senderName = sender.name || sender.username;
  const worker = async () => {
    for (let member = queue.shift(); member; member = queue.shift()) {
      if (await notifyRecipient(db, transfer, senderName, member, now)) emailed.push(member.email);
    }
  };
  await Promise.all(Array.from({ length: Math.min(MAIL_CONCURRENCY, queue.length) }, worker));
  return emailed;
}

async function notifyRecipient(
  db: Db,
  transfer: TransferItem,
  senderName: string,
  member: TransferMemberItem,
  now: Date,
): Promise<boolean> {
  let emailed = false;
  try {
    await sendMail(db, transferInviteEmail, {
      to: member.email,
      callerLimits: [senderLimit(transfer.ownerId)],
      now,
      data: async () => {
        const { token } = await issueToken(db, TRANSFER_INVITE, {
          payload: { transferId: transfer.transferId, email: member.email },
          now,
        });
        return {
          senderName,
          title: transfer.title,
          message: transfer.message,
          fileCount: transfer.fileCount,
          availableUntil: transfer.availableUntil,
          url: inviteUrl(transfer.transferId, token),
        };
      },
    });
    emailed = true;
    await db.entities.transferMember
      .patch({ transferId: transfer.transferId, email: member.email })
      .set({ notifiedAt: now.toISOString() })
      .go();
  } catch (error) {
    logger.warn('A transfer recipient was not emailed', {
      transferId: transfer.transferId,
      reason: error instanceof RateLimited ? 'rate-limited' : (error as Error).name,
    });
  }
  const user = member.userId ? { userId: member.userId } : await getUserByEmail(db, { email: member.email });
  if (user) {
    await tellUser(db, {
      recipientId: user.userId,
      actorId: transfer.ownerId,
      kind: 'transfer-received',
      transfer,
      at: now,
    });
  }
  return emailed;
}

/** A notification in the recipient's centre and a push to their open tabs; never fails the caller. */
export async function tellUser(
  db: Db,
  event: {
    recipientId: string;
    actorId: string;
    kind: 'transfer-received' | 'transfer-downloaded';
    transfer: TransferItem;
    at: Date;
  },
): Promise<void> {
  try {
    const writes = await recordNotification(db, {
      recipientId: event.recipientId,
      actorId: event.actorId,
      kind: event.kind,
      app: 'transfer',
      object: { type: 'transfer', id: event.transfer.transferId, title: event.transfer.title || undefined },
      at: event.at,
    });
    if (writes) await pushUnseenCounts(db, event.recipientId);
  } catch (error) {
    logger.warn('A transfer notification was not recorded', { kind: event.kind, errorName: (error as Error).name });
  }
}

/** The sender learns of a recipient's first download: an email (always: it is the receipt) and a notification. */
export async function sendDownloadReceipt(
  db: Db,
  transfer: TransferItem,
  member: TransferMemberItem,
  downloaderId: string,
  now: Date,
): Promise<void> {
  const { data: sender } = await db.entities.user.get({ userId: transfer.ownerId }).go();
  await tellUser(db, { recipientId: transfer.ownerId, actorId: downloaderId, kind: 'transfer-downloaded', transfer, at: now });
  if (!sender?.email || !sender.emailVerified) return;
  try {
    await sendMail(db, downloadReceiptEmail, {
      to: sender.email,
      now,
      data: () => ({
        recipient: member.email,
        title: transfer.title,
        url: `${getConfig().webOrigin}/transfers/${encodeURIComponent(transfer.transferId)}`,
      }),
    });
  } catch (error) {
    logger.warn('A download receipt was not emailed', { transferId: transfer.transferId, errorName: (error as Error).name });
  }
}
