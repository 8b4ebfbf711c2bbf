import type { Db } from '../../lib/db/service';
import type { StoredFileItem } from '../../lib/db/entities/stored-file';
import type { TransferItem } from '../../lib/db/entities/transfer';
import { BadRequest, Conflict } from '../../lib/errors';
import { encodeManifest } from './manifest';
import { TransferAlreadySent } from './transfer-access';

/** A transfer is sent with every file ready: 400 with none, 409 naming those still uploading. */
export function requireAllReady(files: readonly StoredFileItem[]): void {
  if (files.length === 0) throw new BadRequest('Add at least one file before sending.');
  const notReady = files.filter((file) => file.status !== 'ready');
  if (notReady.length > 0) {
    throw new Conflict(
      `${notReady.length === 1 ? 'One file is' : `${notReady.length} files are`} still uploading: ${notReady
        .slice(0, 5)
        .map((file) => file.name)
        .join(', ')}${notReady.length > 5 ? '…' : ''}.`,
    );
  }
}

/**
 * Marks a draft sent, with its frozen file list and its empty tally, in one transaction: a
 * package exists exactly when its transfer is sent. On condition that it is still a draft with
 * the same file count: a second send gets TransferAlreadySent (409), files added or removed
 * meanwhile a 409 saying so. `sealed` is set in the same write: a link transfer's key hash, so
 * its link works exactly once the transfer is sent. Answers the transfer as sent.
 */
export async function sealTransfer(
  db: Db,
  transfer: TransferItem,
  files: readonly StoredFileItem[],
  now: Date,
  sealed: Pick<Partial<TransferItem>, 'linkKeyHash'> = {},
): Promise<TransferItem> {
  const finalizedAt = now.toISOString();
  const transferId = transfer.transferId;
  const result = await db.transaction
    .write(({ transfer: transfers, transferManifest, transferTally }) => [
      transfers
        .patch({ transferId })
        .set({ status: 'sent', finalizedAt, voteChanges: 0, ...sealed })
        .where(({ status, fileCount }, { eq }) => `${eq(status, 'draft')} AND ${eq(fileCount, files.length)}`)
        .commit(),
      transferManifest
        .create({ transferId, fileCount: files.length, files: encodeManifest(files), expiresAt: transfer.expiresAt })
        .commit(),
      transferTally.create({ transferId, expiresAt: transfer.expiresAt }).commit(),
    ])
    .go();
  if (result.canceled) {
    const { data: current } = await db.entities.transfer.get({ transferId }).go({ consistent: true });
    if (current?.status === 'sent') throw new TransferAlreadySent();
    throw new Conflict('Files were added or removed while sending: check the list and send again.');
  }
  return { ...transfer, ...sealed, status: 'sent', finalizedAt, voteChanges: 0 };
}
