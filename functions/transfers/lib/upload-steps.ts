import type { FileView, UploadingFile } from '../../../shared/schemas/transfers';
import type { Db } from '../../lib/db/service';
import { BadRequest, Conflict } from '../../lib/errors';
import { listParts, presignPart } from '../../lib/files/file-bucket';
import { finalizeFile } from './finalize';
import { requireOwnFile, UPLOAD_LINK_SECONDS } from '../../lib/files/stored-files';
import { requireChangeableFile, uploadTargetOf, type FileOwner } from './stored-files';
import { toFileView } from './transfer-views';

/**
 * The steps of a file's upload after its record exists, for its owner: the sender's routes
 * (/api/i/file/...) and a file request's upload routes (acting for the requester, on that
 * upload's files only) answer through the same code.
 */

/** A new presigned POST for a pending single-upload file, for when its first one ran out. */
export async function signFormOf(db: Db, owner: FileOwner, fileId: string, now: Date): Promise<UploadingFile> {
  const { file, transfer } = await requireChangeableFile(db, fileId, owner, now);
  if (file.status !== 'pending' || file.uploadMethod !== 'post') {
    throw new Conflict('This file is not waiting for a single upload: it is uploaded in parts, or already uploaded.');
  }
  return { file: toFileView(file), upload: await uploadTargetOf(file, now, transfer) };
}

/** Presigned PUT urls for parts of a pending multipart file. */
export async function signPartsOf(db: Db, owner: FileOwner, fileId: string, partNumbers: readonly number[], now: Date) {
  const { file } = await requireChangeableFile(db, fileId, owner, now);
  if (file.status !== 'pending' || file.uploadMethod !== 'multipart' || !file.uploadId) {
    throw new Conflict('This file is not being uploaded in parts.');
  }
  const partCount = file.partCount ?? 0;
  const outside = partNumbers.filter((partNumber) => partNumber > partCount);
  if (outside.length > 0) throw new BadRequest(`This file has ${partCount} parts: there is no part ${outside[0]}.`);
  const uploadId = file.uploadId;
  const parts = await Promise.all(
    [...new Set(partNumbers)].map(async (partNumber) => ({
      partNumber,
      url: await presignPart({ key: file.objectKey, uploadId, partNumber, expiresInSeconds: UPLOAD_LINK_SECONDS }),
    })),
  );
  return { parts, expiresAt: new Date(now.getTime() + UPLOAD_LINK_SECONDS * 1000).toISOString() };
}

/** The parts S3 already holds of a pending multipart file. */
export async function uploadedPartsOf(db: Db, owner: FileOwner, fileId: string) {
  const file = await requireOwnFile(db, fileId, owner);
  if (file.status !== 'pending' || file.uploadMethod !== 'multipart' || !file.uploadId) {
    throw new Conflict('This file is not being uploaded in parts.');
  }
  const parts = await listParts({ key: file.objectKey, uploadId: file.uploadId });
  if (!parts) throw new Conflict('This upload was abandoned too long ago: remove the file and add it again.');
  return { parts };
}

/** Checks what S3 holds for a pending file and makes it ready (finalize.ts); a ready file is answered again. */
export async function finalizeUploadOf(db: Db, owner: FileOwner, fileId: string, now: Date): Promise<{ file: FileView }> {
  const owned = await requireOwnFile(db, fileId, owner);
  // Finalizing again what is ready answers it, whatever became of its transfer since.
  if (owned.status === 'ready') return { file: toFileView(owned) };
  const { file, transfer } = await requireChangeableFile(db, fileId, owner, now);
  return { file: toFileView(await finalizeFile(db, file, transfer, now)) };
}
