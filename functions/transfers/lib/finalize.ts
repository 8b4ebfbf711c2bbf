import type { Db } from '../../lib/db/service';
import type { StoredFileItem } from '../../lib/db/entities/stored-file';
import type { TransferItem } from '../../lib/db/entities/transfer';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import { BadRequest, Conflict } from '../../lib/errors';
import { finalKeyOf } from '../../../shared/transfers/object-keys';
import {
  completeMultipartUpload,
  copyObject,
  deleteObject,
  headObject,
  listParts,
  ObjectChanged,
  PartsTooSmall,
  readObjectStart,
  type StoredObject,
} from '../../lib/files/file-bucket';
import { checkedImage } from './image-intake';
import { removeFile } from '../../lib/files/stored-files';
import { retentionTags } from './stored-files';

/** Enough of an image to read its type and size from its header (JPEG puts them after its metadata). */
const IMAGE_HEAD_BYTES = 256 * 1024;

/** An upload that did not produce what was declared: its bytes and record are removed, and the sender is told why. */
export class UploadRejected extends BadRequest {
  constructor(reason: string) {
    super(`${reason} The file was removed: add it again.`, { code: 'UPLOAD_REJECTED' });
  }
}

/** S3's least size for each part of a multipart upload but the last. */
const S3_MIN_PART_BYTES = 5 * 1024 * 1024;

/**
 * Completes a multipart upload from what S3 holds: every part present, each but the last of
 * the agreed size. Missing parts answer 409 with how many, so the client sends them and retries.
 * Parts S3 will not join (one but the last under 5 MiB: EntityTooSmall) are the upload's
 * refusal, returned as a sentence for the sender, as the checks of the joined object are.
 */
async function completeParts(file: StoredFileItem): Promise<string | null> {
  if (!file.uploadId) return null;
  const parts = await listParts({ key: file.objectKey, uploadId: file.uploadId });
  // Unknown upload: completed by an earlier call whose answer was lost; the object decides below.
  if (!parts) return null;
  const partCount = file.partCount ?? 0;
  const present = new Set(parts.map((part) => part.partNumber));
  const missing = partCount - [...present].filter((partNumber) => partNumber <= partCount).length;
  if (missing > 0) throw new Conflict(`${missing} of ${partCount} parts have not arrived yet: send them, then finalize again.`);
  const joined = parts.filter((part) => part.partNumber <= partCount);
  try {
    await completeMultipartUpload({ key: file.objectKey, uploadId: file.uploadId, parts: joined });
  } catch (error) {
    if (!(error instanceof PartsTooSmall)) throw error;
    const small = joined.slice(0, -1).find((part) => part.size < S3_MIN_PART_BYTES);
    const which = small ? `part ${small.partNumber} of ${partCount} arrived with ${small.size} bytes` : 'a part arrived too small';
    return `${file.name} cannot be put together: ${which}, and every part but the last must hold at least 5 MiB (${S3_MIN_PART_BYTES} bytes).`;
  }
  return null;
}

async function whyRefused(file: StoredFileItem, stored: StoredObject): Promise<string | null> {
  if (stored.size !== file.size) return `${file.name} arrived with ${stored.size} bytes, not the ${file.size} declared.`;
  if (stored.contentType.toLowerCase() !== file.contentType) {
    return `${file.name} arrived as ${stored.contentType || 'no type'}, not the ${file.contentType} declared.`;
  }
  if (file.purpose === 'image') {
    try {
      const head = await readObjectStart(file.objectKey, Math.min(file.size, IMAGE_HEAD_BYTES), stored.etag);
      const image = await checkedImage(head);
      if (image.type !== file.contentType) return `${file.name} is a ${image.type} image, not the ${file.contentType} declared.`;
    } catch (error) {
      if (error instanceof BadRequest) return error.message;
      throw error;
    }
  }
  return null;
}

/** Removes the file, its bytes and any parts, and tells the sender why (400 UPLOAD_REJECTED). */
async function reject(db: Db, file: StoredFileItem, reason: string): Promise<never> {
  await removeFile(db, file);
  throw new UploadRejected(reason);
}

/**
 * The file as a concurrent finalize made it ready (it copied the upload, then deleted it); else
 * `refusal`, the file staying pending.
 */
async function readyMeanwhile(db: Db, file: StoredFileItem, refusal: Conflict): Promise<StoredFileItem> {
  const { data: current } = await db.entities.storedFile.get({ fileId: file.fileId }).go({ consistent: true });
  if (current?.status === 'ready') return current;
  throw refusal;
}

const changedWhileChecked = (file: StoredFileItem) =>
  new Conflict(`${file.name} changed while it was being checked: finalize it again to check what it holds now.`);

/**
 * Makes a pending file ready once S3 holds exactly what was declared. S3 out of reach is a 503
 * (FileStorageUnavailable) and leaves the file pending; a mismatch, or parts S3 will not join,
 * deletes the bytes and the record (400); a file already ready is answered as it is.
 *
 * What was checked is what recipients get. A presigned POST's upload is copied to its final key
 * (shared/transfers/object-keys.ts) on condition that it still has the ETag that was checked,
 * and the final key is recorded in the conditional write that makes the file ready; then the
 * upload is deleted. The sender's form stays valid for a while but writes the upload key only,
 * which nothing reads once the file is ready. An upload changed between the check and the copy
 * is 409 (the file stays pending; finalizing again checks what it holds now); a finalize cut
 * short after the copy is repeated as it came, copying again. A multipart upload is not copied:
 * once completed here no part URL can write its key any more, and a copy of a file of hundreds
 * of GB could not be made within a request.
 */
export async function finalizeFile(
  db: Db,
  file: StoredFileItem,
  transfer: TransferItem | null,
  now: Date,
): Promise<StoredFileItem> {
  if (file.status === 'ready') return file;
  const unjoinable = file.uploadMethod === 'multipart' ? await completeParts(file) : null;
  if (unjoinable) await reject(db, file, unjoinable);
  const stored = await headObject(file.objectKey);
  if (!stored) return readyMeanwhile(db, file, new Conflict(`${file.name} has not been uploaded yet.`));
  let etag = stored.etag;
  let finalKey: string | undefined;
  try {
    const refusal = await whyRefused(file, stored);
    if (refusal) await reject(db, file, refusal);
    if (file.uploadMethod === 'post') {
      finalKey = finalKeyOf(file.objectKey);
      const tags = transfer ? retentionTags(transfer) : undefined;
      etag = (await copyObject({ from: file.objectKey, to: finalKey, etag: stored.etag, tags })) || stored.etag;
    }
  } catch (error) {
    if (error instanceof ObjectChanged) return readyMeanwhile(db, file, changedWhileChecked(file));
    throw error;
  }
  const ready = {
    status: 'ready' as const,
    readyAt: now.toISOString(),
    checksum: etag.replace(/"/g, ''),
    ...(finalKey ? { finalKey } : {}),
    ...(transfer ? { expiresAt: transfer.expiresAt } : {}),
  };
  try {
    const update = db.entities.storedFile.patch({ fileId: file.fileId }).set(ready);
    await (transfer ? update : update.remove(['expiresAt'])).where(({ status }, { eq }) => eq(status, 'pending')).go();
  } catch (error) {
    // The table out of reach leaves the file pending, its upload where it was, for a retry.
    if (!isConditionalCheckFailed(error)) throw error;
    // Finalized by a concurrent call: answer what it stored.
    return readyMeanwhile(db, file, new Conflict('The file changed while it was being checked: try again.'));
  }
  // Never read again. Left behind when S3 is out of reach: a transfer's upload carries its
  // retention tag, and deleting the file deletes every key it may have.
  if (finalKey) await deleteObject(file.objectKey).catch(() => undefined);
  return { ...file, ...ready };
}
