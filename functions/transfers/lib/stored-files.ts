import type { UploadingFile, UploadTarget } from '../../../shared/schemas/transfers';
import { MAX_FILES_PER_TRANSFER } from '../../../shared/transfers/plans';
import {
  cleanFileName,
  normaliseContentType,
  refusedTransferFile,
  UNUSABLE_FILE_NAME,
} from '../../../shared/transfers/file-rules';
import { RETENTION_TAG, retentionClassFor } from '../../../shared/transfers/retention';
import { partCountFor, partSizeFor, uploadMethodFor } from '../../../shared/transfers/upload-sizing';
import type { Db } from '../../lib/db/service';
import { objectKeysOf, transferFolder, type StoredFileItem } from '../../lib/db/entities/stored-file';
import type { TransferItem } from '../../lib/db/entities/transfer';
import { BadRequest, Conflict, NotFound } from '../../lib/errors';
import { abortMultipartUpload, deleteObjects, presignPost, startMultipartUpload } from '../../lib/files/file-bucket';
import { newEntityId } from './ids';
import { withCurrentPlanLimits } from './plan';
import {
  isExpired,
  refuseUploadInProgress,
  requireOwnDraft,
  TransferAlreadySent,
  TransferExpired,
  type TransferActor,
} from './transfer-access';
import { toFileView } from './transfer-views';

/**
 * A presigned POST or part URL works this long. S3 judges a link when its request starts, so this
 * is the time to start one form (16 MiB at most) or one part, not to finish it; the client asks
 * for a new one (sign-upload-form, sign-upload-parts) when its own ran out before its turn. Short,
 * as a form names its key only: the sender can send other bytes with it until it expires, which
 * after finalize writes the upload key that nothing reads (finalize.ts).
 */
export const UPLOAD_LINK_SECONDS = 15 * 60;
/** A pending file is forgotten after this; S3 drops its unfinished parts after one day. */
const PENDING_LIFETIME_SECONDS = 2 * 24 * 3600;

/** Whose files and transfers are asked for: a signed-in user, or the requester a file request's upload acts for. */
export type FileOwner = TransferActor;

export class FileNotFound extends NotFound {
  constructor() {
    super('There is no such file, or it is not yours.');
  }
}

export interface DeclaredFile {
  name: string;
  size: number;
  type: string;
  lastModified?: number | undefined;
}

/** A new file's upload key (shared/transfers/object-keys.ts). */
export const objectKeyOf = (file: { purpose: 'transfer' | 'image'; transferId?: string | undefined; fileId: string }) =>
  file.purpose === 'transfer' ? `transfers/${file.transferId}/${file.fileId}` : `images/${file.fileId}`;

/**
 * A file of the caller's, in any state; 404 for anyone else's, as for none. The caller is its
 * owner: the signed-in sender, or for an upload through a file request the requester, on whose
 * behalf the upload's grant acts (file-request-uploads.ts).
 */
export async function requireOwnFile(db: Db, fileId: string, caller: FileOwner): Promise<StoredFileItem> {
  const { data: file } = await db.entities.storedFile.get({ fileId }).go({ consistent: true });
  if (!file || file.ownerId !== caller.userId) throw new FileNotFound();
  return file;
}

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

/** Where the browser sends the bytes of a pending file. */
export async function uploadTargetOf(file: StoredFileItem, now: Date, transfer: TransferItem | null): Promise<UploadTarget> {
  if (file.uploadMethod === 'multipart') {
    return { method: 'multipart', partSize: file.partSize ?? 0, partCount: file.partCount ?? 0 };
  }
  const { url, fields } = await presignPost({
    key: file.objectKey,
    size: file.size,
    contentType: file.contentType,
    expiresInSeconds: UPLOAD_LINK_SECONDS,
    tags: transfer ? retentionTags(transfer) : undefined,
  });
  return { method: 'post', url, fields, expiresAt: new Date(now.getTime() + UPLOAD_LINK_SECONDS * 1000).toISOString() };
}

function checkedDeclaration(declared: DeclaredFile): DeclaredFile & { contentType: string } {
  const name = cleanFileName(declared.name);
  if (!name) throw new BadRequest(UNUSABLE_FILE_NAME);
  const contentType = normaliseContentType(declared.type);
  const refusal = refusedTransferFile({ name, type: contentType });
  if (refusal) throw new BadRequest(refusal, { name });
  return { ...declared, name, contentType };
}

/**
 * Pending file records, one per declared file, each ready to receive its bytes. The files and
 * the transfer's totals are written in one transaction, on condition that the transfer is
 * still a draft and stays within its plan's size and file count, so concurrent calls cannot
 * overfill it. A multipart upload is started first; if the records are then refused, it is aborted.
 */
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
  const createdAt = now.toISOString();
  const items: StoredFileItem[] = [];
  try {
    for (const declared of checked) {
      const fileId = newEntityId();
      const method = uploadMethodFor(declared.size);
      const objectKey = objectKeyOf({ purpose: 'transfer', transferId, fileId });
      const partSize = partSizeFor(declared.size);
      items.push({
        fileId,
        purpose: 'transfer',
        ownerId: caller.userId,
        transferId,
        folder: transferFolder(transferId),
        name: declared.name,
        size: declared.size,
        contentType: declared.contentType,
        status: 'pending',
        uploadMethod: method,
        objectKey,
        ...(method === 'multipart'
          ? {
              uploadId: await startMultipartUpload({
                key: objectKey,
                contentType: declared.contentType,
                tags: retentionTags(transfer),
              }),
              partSize,
              partCount: partCountFor(declared.size, partSize),
            }
          : {}),
        ...(declared.lastModified !== undefined ? { lastModified: declared.lastModified } : {}),
        createdAt,
        expiresAt: Math.floor(now.getTime() / 1000) + PENDING_LIFETIME_SECONDS,
      });
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
    await Promise.all(
      items.flatMap((item) =>
        item.uploadId ? [abortMultipartUpload({ key: item.objectKey, uploadId: item.uploadId }).catch(() => undefined)] : [],
      ),
    );
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

/**
 * Removes a pending or ready file of a draft (or an image) with its bytes (under every key they
 * may be), and gives its size back to the transfer, in one transaction with the record's removal.
 */
export async function removeFile(db: Db, file: StoredFileItem): Promise<void> {
  if (file.uploadId && file.status === 'pending') await abortMultipartUpload({ key: file.objectKey, uploadId: file.uploadId });
  await deleteObjects(objectKeysOf(file));
  const transferId = file.transferId;
  const result = await db.transaction
    .write(({ storedFile, transfer }) => [
      storedFile
        .delete({ fileId: file.fileId })
        .where(({ status }, { eq }) => eq(status, file.status))
        .commit(),
      ...(transferId
        ? [
            transfer
              .patch({ transferId })
              .add({ totalBytes: -file.size, fileCount: -1 })
              .where(({ status }, { eq }) => eq(status, 'draft'))
              .commit(),
          ]
        : []),
    ])
    .go();
  if (result.canceled) throw new Conflict('The file or its transfer changed meanwhile: reload and try again.');
}
