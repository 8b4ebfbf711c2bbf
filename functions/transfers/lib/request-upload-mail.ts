import { APP_NAME } from '../../../shared/constants';
import { getConfig } from '../../lib/config';
import type { Db } from '../../lib/db/service';
import type { FileRequestItem } from '../../lib/db/entities/file-request';
import type { TransferItem } from '../../lib/db/entities/transfer';
import { logger } from '../../lib/logger';
import { html, mailLink } from '../../lib/mail/template';
import { defineMailKind, sendMail } from '../../lib/mailer';
import { PLATFORM_ACTOR_ID, recordNotification } from '../../lib/notifications';
import { pushUnseenCounts } from '../../lib/realtime';
import { formatBytes } from './stored-files';
import { INVITE_LISTED_FILES } from './transfer-mail';

export interface RequestUploadMailData {
  uploaderName: string;
  note: string;
  requestTitle: string;
  files: readonly { name: string; size: number }[];
  url: string;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** "Ana sent 3 files", the line the bell and the mail both start with. */
export const uploadLine = (uploaderName: string, fileCount: number) => `${uploaderName} sent ${plural(fileCount, 'file')}`;

/**
 * "Ana sent you files through your request": to the requester, with the uploader's name and note
 * as they typed them (escaped), the files, and the link to the transfer they landed in. The
 * uploader has no account: the name is theirs to choose, so the mail says it came through the
 * request rather than vouching for who they are.
 */
export const requestUploadEmail = defineMailKind<RequestUploadMailData>({
  name: 'transfer-request-upload',
  from: () => getConfig().transferMailFrom,
  template: ({ uploaderName, note, requestTitle, files, url }) => {
    const link = mailLink(url);
    const listed = files.slice(0, INVITE_LISTED_FILES);
    const unlisted = files.length - listed.length;
    const totalBytes = files.reduce((sum, file) => sum + file.size, 0);
    const line = `${uploadLine(uploaderName, files.length)} (${formatBytes(totalBytes)}) through your request “${requestTitle}” on ${APP_NAME}.`;
    const text = [
      line,
      ...(note ? ['', 'Their note:', note] : []),
      '',
      ...listed.map((file) => `- ${file.name} (${formatBytes(file.size)})`),
      ...(unlisted > 0 ? [`- and ${plural(unlisted, 'more file')}`] : []),
      '',
      `See the files: ${link}`,
      '',
      'The name is the one the uploader gave: they did not sign in.',
      '',
    ].join('\n');
    const body = html`<!doctype html>
      <html>
        <body style="font-family:system-ui,sans-serif;line-height:1.5">
          <p>${line}</p>
          ${note ? html`<p style="white-space:pre-wrap;border-left:3px solid #ccc;padding-left:12px">${note}</p>` : html``}
          <ul>
            ${listed.map((file) => html`<li>${file.name} <span style="color:#555">(${formatBytes(file.size)})</span></li>`)}
            ${unlisted > 0 ? html`<li>and ${plural(unlisted, 'more file')}</li>` : html``}
          </ul>
          <p><a href="${link}">See the files</a></p>
          <p style="color:#555">The name is the one the uploader gave: they did not sign in.</p>
        </body>
      </html>`;
    return { subject: `${uploadLine(uploaderName, files.length)} through “${requestTitle}”`, text, html: body.markup };
  },
  cooldown: { seconds: 1, message: () => 'An upload was just reported to this address.' },
  dailyPerAddress: { limit: 500, message: () => 'Too many uploads were reported to this address today.' },
  hourlyOverall: { limit: 20_000, message: () => 'Too many uploads are being reported right now.' },
  unavailableMessage: 'The email about the upload could not be sent.',
});

/**
 * Tells the requester an upload finished: a notification in their bell (with the uploader's name
 * and note) and an email. Neither undoes the upload when it fails: it is logged.
 */
export async function notifyRequester(
  db: Db,
  request: Pick<FileRequestItem, 'requestId' | 'title'>,
  transfer: TransferItem,
  files: readonly { name: string; size: number }[],
  now: Date,
): Promise<void> {
  const uploaderName = transfer.uploaderName ?? '';
  const note = transfer.uploaderNote ?? '';
  try {
    const writes = await recordNotification(db, {
      recipientId: transfer.ownerId,
      // The uploader has no account: the upload is the platform's news to the requester.
      actorId: PLATFORM_ACTOR_ID,
      byPlatform: true,
      kind: 'transfer-request-upload',
      app: 'transfer',
      object: {
        type: 'transfer',
        id: transfer.transferId,
        title: request.title,
        detail: `${uploadLine(uploaderName, files.length)}${note ? `, noting “${note.length > 200 ? `${note.slice(0, 200)}…` : note}”` : ''}`,
      },
      at: now,
    });
    if (writes) await pushUnseenCounts(db, transfer.ownerId);
  } catch (error) {
    logger.warn('A request upload notification was not recorded', { errorName: (error as Error).name });
  }
  const { data: requester } = await db.entities.user.get({ userId: transfer.ownerId }).go();
  if (!requester?.email || !requester.emailVerified) return;
  try {
    await sendMail(db, requestUploadEmail, {
      to: requester.email,
      now,
      data: () => ({
        uploaderName,
        note,
        requestTitle: request.title,
        files,
        url: `${getConfig().webOrigin}/transfers/${encodeURIComponent(transfer.transferId)}`,
      }),
    });
  } catch (error) {
    logger.warn('A request upload was not emailed', { transferId: transfer.transferId, errorName: (error as Error).name });
  }
}
