import type { UploadingFile, UploadTarget } from '../../../shared/schemas/transfers';
import { MAX_FILES_PER_TRANSFER } from '../../../shared/transfers/plans';
import { RETENTION_TAG, retentionClassFor } from '../../../shared/transfers/retention';
import type { Db } from '../../lib/db/service';
import { transferFolder, type StoredFileItem } from '../../lib/db/entities/stored-file';
import type { TransferItem } from '../../lib/db/entities/transfer';
import { BadRequest, Conflict } from '../../lib/errors';
import {
  abortPendingUploads,
  checkedDeclaration,
  type DeclaredFile,
  FileNotFound,
  newEntityId,
  objectKeyOf,
  requireOwnFile,
  pendingFileOf,
  toFileView,
  uploadTargetFor,
} from '../../lib/files/stored-files';
import { withCurrentPlanLimits } from './plan';
import {
  isExpired,
  refuseUploadInProgress,
  requireOwnDraft,
  TransferAlreadySent,
  TransferExpired,
  type TransferActor,
} from './transfer-access';

/** Whose files and transfers are asked for: a signed-in user, or the requester a file request's upload acts for. */
export type FileOwner = TransferActor;

/** A file of the caller's that may still change: pending or not, its transfer still a draft. */
export async function requireChangeableFile(db: Db, fileId: string, caller: FileOwner, now: Date) {
  const file = await requireOwnFile(db, fileId, caller);
  let transfer: TransferItem | null = null;
  if (file.transferId) {
    ({ data: transfer } = await db.entities.transfer.get({ transferId: file.transferId }).go({ consistent: true }));
    if (!transfer) throw new FileNotFound();
    if (isExpired(transfer, now)) throw new TransferExpired(transfer.availableUntil);
    if (transfer.status !== 'draft') throw new TransferAlreadySent();
    refuseUploadInProgress(transfer, caller);
  }
  return { file, transfer };
}

/** A transfer's bytes are removed by the bucket's lifecycle rule for its retention class. */
export function retentionTags(transfer: Pick<TransferItem, 'createdAt' | 'availableUntil'>): Record<string, string> {
  const lifetimeDays = Math.ceil((Date.parse(transfer.availableUntil) - Date.parse(transfer.createdAt)) / 86_400_000);
  return { [RETENTION_TAG]: String(retentionClassFor(lifetimeDays)) };
}

/**
 * Pending file records, one per declared file, each ready to receive its bytes. The files and
 * the transfer's totals are written in one transaction, on condition that the transfer is
 * still a draft and stays within its plan's size and file count, so concurrent calls cannot
 * overfill it. A multipart upload is started first; if the records are then refused, it is aborted.
 */
/** Where the browser sends a pending file's bytes; a transfer's are tagged for its retention class. */
export const uploadTargetOf = (file: StoredFileItem, now: Date, transfer: TransferItem | null): Promise<UploadTarget> =>
  uploadTargetFor(file, now, transfer ? retentionTags(transfer) : undefined);


export async function createTransferFiles(
  db: Db,
  caller: FileOwner,
  transferId: string,
  declaredFiles: readonly DeclaredFile[],
  now: Date,
): Promise<UploadingFile[]> {
  const draft = await requireOwnDraft(db, transferId, caller, now);
  const checked = declaredFiles.map(checkedDeclaration);
  const bytes = checked.reduce((sum, file) => sum + file.size, 0);
  const transfer = draft.totalBytes + bytes > draft.maxTransferBytes ? await withCurrentPlanLimits(db, draft, now) : draft;
  if (transfer.totalBytes + bytes > transfer.maxTransferBytes) {
    throw new BadRequest(
      `A transfer on the ${transfer.planId} plan holds at most ${formatBytes(transfer.maxTransferBytes)}: these files would make it ${formatBytes(transfer.totalBytes + bytes)}.`,
      { maxTransferBytes: transfer.maxTransferBytes, planId: transfer.planId, code: 'TRANSFER_TOO_LARGE' },
    );
  }
  if (transfer.fileCount + checked.length > MAX_FILES_PER_TRANSFER) {
    throw new BadRequest(`A transfer holds at most ${MAX_FILES_PER_TRANSFER} files.`);
  }
  const items: StoredFileItem[] = [];
  try {
    for (const declared of checked) {
      const fileId = newEntityId();
      items.push(
        await pendingFileOf({
          declared,
          fileId,
          purpose: 'transfer',
          owner: caller,
          transferId,
          folder: transferFolder(transferId),
          objectKey: objectKeyOf({ purpose: 'transfer', transferId, fileId }),
          tags: retentionTags(transfer),
          now,
        }),
      );
    }
    const result = await db.transaction
      .write(({ storedFile, transfer: transfers }) => [
        ...items.map((item) => storedFile.create(item).commit()),
        transfers
          .patch({ transferId })
          .add({ totalBytes: bytes, fileCount: items.length })
          .where(
            ({ status, totalBytes, fileCount }, { eq, lte }) =>
              `${eq(status, 'draft')} AND ${lte(totalBytes, transfer.maxTransferBytes - bytes)} AND ${lte(fileCount, MAX_FILES_PER_TRANSFER - items.length)}`,
          )
          .commit(),
      ])
      .go();
    if (result.canceled) {
      throw new Conflict(
        'The transfer changed meanwhile (it was sent, or other files filled it): check it and add the files again.',
      );
    }
  } catch (error) {
    await abortPendingUploads(items);
    throw error;
  }
  return Promise.all(items.map(async (item) => ({ file: toFileView(item), upload: await uploadTargetOf(item, now, transfer) })));
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(bytes % 1e9 === 0 ? 0 : 1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
