import type { Db } from '../../lib/db/service';
import type { TransferItem } from '../../lib/db/entities/transfer';
import type { TransferMemberItem } from '../../lib/db/entities/transfer-member';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import { sendDownloadReceipt } from './transfer-mail';

/** Downloads kept per recipient for the sender's view: the first 100 say who fetched what. */
const DOWNLOADS_KEPT = 100;

/**
 * Notes a recipient's download (a file id, or 'all' for the zip) for the sender's view. The first
 * download of each recipient is claimed by a conditional write, so the sender gets exactly one
 * receipt per recipient however many downloads race. The sender's own downloads are not noted.
 */
export async function recordDownload(
  db: Db,
  transfer: TransferItem,
  member: TransferMemberItem | null,
  downloaderId: string,
  fileId: string,
  now: Date,
): Promise<void> {
  if (!member) return;
  const key = { transferId: transfer.transferId, email: member.email };
  const at = now.toISOString();
  let first = false;
  if (!member.firstDownloadAt) {
    try {
      await db.entities.transferMember
        .patch(key)
        .set({ firstDownloadAt: at, userId: downloaderId })
        .where(({ firstDownloadAt }, { notExists }) => notExists(firstDownloadAt))
        .go();
      first = true;
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }
  if ((member.downloads?.length ?? 0) < DOWNLOADS_KEPT) {
    await db.entities.transferMember
      .patch(key)
      .append({ downloads: [{ fileId, at }] })
      .go();
  }
  if (first) await sendDownloadReceipt(db, transfer, member, downloaderId, now);
}
