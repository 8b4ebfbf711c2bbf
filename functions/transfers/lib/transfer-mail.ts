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
import { PLATFORM_ACTOR_ID, recordNotification } from '../../lib/notifications';
import { pushUnseenCounts } from '../../lib/realtime';
import { defineTokenPurpose, issueToken } from '../../lib/one-time-tokens';
import { hashedKeyPart } from '../../lib/rate-limit';
import { formatBytes } from './stored-files';

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

/** The most files an invitation lists one by one; the rest are counted. */
export const INVITE_LISTED_FILES = 20;

export interface InviteMailData {
  /** The sender's display name ('' when they set none) and username. */
  sender: { name: string; username: string };
  title: string;
  message: string;
  /** The transfer's files, in order: each named with its size. */
  files: readonly { name: string; size: number }[];
  availableUntil: string;
  url: string;
  /**
   * A password-protected transfer's mail says nothing of what it holds (no title, message or
   * files): a forwarded mail, like a leaked link, must not tell what the password guards.
   */
  passwordProtected?: boolean;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** 'Ana Lima (@ana)', or '@ana' for a sender with no display name. */
export function senderLabel(sender: { name: string; username: string }): string {
  const name = sender.name.trim();
  const handle = sender.username ? `@${sender.username}` : '';
  if (!name) return handle || 'Someone';
  return handle ? `${name} (${handle})` : name;
}

/** A date as mails state it, in UTC (the expiry is a UTC instant): '31 March 2026'. */
export function mailDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/**
 * "You received files", from the transfer sender (TRANSFER_MAIL_FROM), as the files' own mail:
 * who sent them (display name and username), each file with its size and the total, the
 * sender's message, the link, and until when it works. Plain text and HTML, where every
 * sender-written value (name, title, message, file names) is escaped. Limited per address (a
 * sender cannot flood one inbox) and per sender (nobody mails the world through us): 1,000
 * recipients an hour.
 */
export const transferInviteEmail = defineMailKind<InviteMailData>({
  name: 'transfer-invite',
  from: () => getConfig().transferMailFrom,
  template: ({ sender, title, message, files, availableUntil, url, passwordProtected }) => {
    const link = mailLink(url);
    const who = senderLabel(sender);
    if (passwordProtected) return protectedInvite(who, link, mailDate(availableUntil));
    const what = title ? `“${title}”` : plural(files.length, 'file');
    const until = mailDate(availableUntil);
    const totalBytes = files.reduce((sum, file) => sum + file.size, 0);
    const listed = files.slice(0, INVITE_LISTED_FILES);
    const unlisted = files.length - listed.length;
    const filesLine = `${plural(files.length, 'file')}, ${formatBytes(totalBytes)} in total`;
    const moreLine = unlisted > 0 ? `and ${plural(unlisted, 'more file')}` : '';
    const text = [
      `${who} sent you ${what} with ${APP_NAME}.`,
      ...(message ? ['', 'Their message:', message] : []),
      '',
      `${filesLine}:`,
      ...listed.map((file) => `- ${file.name} (${formatBytes(file.size)})`),
      ...(moreLine ? [`- ${moreLine}`] : []),
      '',
      `Open the files: ${link}`,
      '',
      `They can be downloaded until ${until}.`,
      '',
    ].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p><strong>${who}</strong> sent you ${what} with ${APP_NAME}.</p>
          ${message ? html`<p style="white-space:pre-wrap;border-left:3px solid #ccc;padding-left:12px">${message}</p>` : html``}
          <p style="margin-bottom:4px">${filesLine}:</p>
          <ul style="margin-top:0">
            ${listed.map((file) => html`<li>${file.name} <span style="color:#555">(${formatBytes(file.size)})</span></li>`)}
            ${moreLine ? html`<li>${moreLine}</li>` : html``}
          </ul>
          <p><a href="${link}">Open the files</a></p>
          <p style="color:#555">They can be downloaded until ${until}.</p>
        </body>
      </html>`;
    return { subject: `${who} sent you ${what}`, text, html: body.markup };
  },
  cooldown: { seconds: 1, message: () => 'Files were just sent to this address.' },
  dailyPerAddress: { limit: 100, message: () => 'This address has received too many transfers today.' },
  hourlyOverall: { limit: 20_000, message: () => 'Too many transfers are being sent right now.' },
  unavailableMessage: 'The email to a recipient could not be sent.',
});

/** The invitation to a password-protected transfer: who sent files, the link and that the sender gives the password. */
function protectedInvite(who: string, link: string, until: string) {
  const passwordLine = 'They are protected by a password: ask the sender for it (it is not in this email).';
  const text = [
    `${who} sent you files with ${APP_NAME}.`,
    '',
    passwordLine,
    '',
    `Open the files: ${link}`,
    '',
    `They can be downloaded until ${until}.`,
    '',
  ].join('\n');
  const body = html`<!doctype html>
    <html>
      <body style="font-family:system-ui,sans-serif;line-height:1.5">
        <p><strong>${who}</strong> sent you files with ${APP_NAME}.</p>
        <p>${passwordLine}</p>
        <p><a href="${link}">Open the files</a></p>
        <p style="color:#555">They can be downloaded until ${until}.</p>
      </body>
    </html>`;
  return { subject: `${who} sent you files`, text, html: body.markup };
}

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
  files: readonly { name: string; size: number }[],
  members: readonly TransferMemberItem[],
  now: Date,
): Promise<string[]> {
  const emailed: string[] = [];
  const queue = [...members];
  const content = {
    sender: { name: sender.name ?? '', username: sender.username ?? '' },
    files: files.map(({ name, size }) => ({ name, size })),
  };
  const worker = async () => {
    for (let member = queue.shift(); member; member = queue.shift()) {
      if (await notifyRecipient(db, transfer, content, member, now)) emailed.push(member.email);
    }
  };
  await Promise.all(Array.from({ length: Math.min(MAIL_CONCURRENCY, queue.length) }, worker));
  return emailed;
}

async function notifyRecipient(
  db: Db,
  transfer: TransferItem,
  content: Pick<InviteMailData, 'sender' | 'files'>,
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
        if (transfer.passwordHash) {
          const url = inviteUrl(transfer.transferId, token);
          return {
            ...content,
            files: [],
            title: '',
            message: '',
            availableUntil: transfer.availableUntil,
            url,
            passwordProtected: true,
          };
        }
        return {
          ...content,
          title: transfer.title,
          message: transfer.message,
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

const receivedTitle = (kind: string, transfer: TransferItem) =>
  kind === 'transfer-received' && transfer.passwordHash ? undefined : transfer.title || undefined;

/** A notification in the recipient's centre and a push to their open tabs; never fails the caller. */
export async function tellUser(
  db: Db,
  event: {
    recipientId: string;
    actorId: string;
    kind: 'transfer-received' | 'transfer-downloaded' | 'transfer-download-limit-reached';
    transfer: TransferItem;
    at: Date;
    byPlatform?: boolean;
  },
): Promise<void> {
  try {
    const writes = await recordNotification(db, {
      recipientId: event.recipientId,
      actorId: event.actorId,
      kind: event.kind,
      app: 'transfer',
      // A recipient is told a protected transfer's title only once they unlock it.
      object: { type: 'transfer', id: event.transfer.transferId, title: receivedTitle(event.kind, event.transfer) },
      at: event.at,
      ...(event.byPlatform ? { byPlatform: true } : {}),
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

export const downloadLimitReachedEmail = defineMailKind<{ title: string; downloadLimit: number; url: string }>({
  name: 'transfer-download-limit-reached',
  template: ({ title, downloadLimit, url }) => {
    const link = mailLink(url);
    const what = title ? `“${title}”` : 'The files you sent';
    const line = `${what} reached its download limit (${plural(downloadLimit, 'download')}): its files are not served any more.`;
    const text = [line, '', `See who downloaded what: ${link}`, ''].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>${line}</p>
          <p><a href="${link}">See who downloaded what</a></p>
        </body>
      </html>`;
    return { subject: `${what} reached its download limit`, text, html: body.markup };
  },
  cooldown: { seconds: 1, message: () => 'A download limit mail was just sent.' },
  dailyPerAddress: { limit: 500, message: () => 'Too many download limit mails today.' },
  hourlyOverall: { limit: 20_000, message: () => 'Too many download limit mails are being sent right now.' },
  unavailableMessage: 'The download limit mail could not be sent.',
});

/**
 * The sender learns that the last allowed download was taken (once per transfer: the caller
 * claimed it): a notification, from the platform (no person did it), and a mail.
 */
export async function tellSenderLimitReached(db: Db, transfer: TransferItem, now: Date): Promise<void> {
  await tellUser(db, {
    recipientId: transfer.ownerId,
    actorId: PLATFORM_ACTOR_ID,
    kind: 'transfer-download-limit-reached',
    transfer,
    at: now,
    byPlatform: true,
  });
  const { data: sender } = await db.entities.user.get({ userId: transfer.ownerId }).go();
  if (!sender?.email || !sender.emailVerified) return;
  try {
    await sendMail(db, downloadLimitReachedEmail, {
      to: sender.email,
      now,
      data: () => ({
        title: transfer.title,
        downloadLimit: transfer.downloadLimit ?? 0,
        url: `${getConfig().webOrigin}/transfers/${encodeURIComponent(transfer.transferId)}`,
      }),
    });
  } catch (error) {
    logger.warn('A download limit mail was not sent', { transferId: transfer.transferId, errorName: (error as Error).name });
  }
}
