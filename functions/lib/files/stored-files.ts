import { randomBytes } from 'node:crypto';
import type { FileView, UploadTarget } from '../../../shared/schemas/transfers';
import {
  cleanFileName,
  normaliseContentType,
  refusedTransferFile,
  UNUSABLE_FILE_NAME,
} from '../../../shared/transfers/file-rules';
import { partCountFor, partSizeFor, uploadMethodFor } from '../../../shared/transfers/upload-sizing';
import { objectKeysOf, type StoredFileItem } from '../db/entities/stored-file';
import type { Db } from '../db/service';
import { BadRequest, Conflict, NotFound } from '../errors';
import type { UserCaller } from '../http/caller';
import { abortMultipartUpload, deleteObjects, presignPost, startMultipartUpload } from './file-bucket';

/**
 * Stored files, whichever app they serve: a transfer's files, images, a shop's grade files.
 * Their records, their upload targets and their removal live here, so the transfer app and the
 * storefront share one upload path without one app importing the other.
 */

/** 128 random bits in base64url (22 characters): file and other ids, unguessable but never the access check. */
export const newEntityId = (): string => randomBytes(16).toString('base64url');

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
export type FileOwner = Pick<UserCaller, 'userId'>;

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

/** A new file's upload key (shared/transfers/object-keys.ts): a shop's files go under their shop's folder. */
export const objectKeyOf = (file: {
  purpose: StoredFileItem['purpose'];
  transferId?: string | undefined;
  merchantAccountId?: string | undefined;
  fileId: string;
}) => {
  switch (file.purpose) {
    case 'transfer':
      return `transfers/${file.transferId}/${file.fileId}`;
    case 'product':
      return `store/${file.merchantAccountId}/${file.fileId}`;
    default:
      return `images/${file.fileId}`;
  }
};

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

/** Where the browser sends the bytes of a pending file (tagged for a retention rule, when given). */
export async function uploadTargetFor(
  file: StoredFileItem,
  now: Date,
  tags?: Record<string, string> | undefined,
): Promise<UploadTarget> {
  if (file.uploadMethod === 'multipart') {
    return { method: 'multipart', partSize: file.partSize ?? 0, partCount: file.partCount ?? 0 };
  }
  const { url, fields } = await presignPost({
    key: file.objectKey,
    size: file.size,
    contentType: file.contentType,
    expiresInSeconds: UPLOAD_LINK_SECONDS,
    tags,
  });
  return { method: 'post', url, fields, expiresAt: new Date(now.getTime() + UPLOAD_LINK_SECONDS * 1000).toISOString() };
}

/** A declared file with a usable name and an accepted type; 400 saying why otherwise. */
export function checkedDeclaration(declared: DeclaredFile): DeclaredFile & { contentType: string } {
  const name = cleanFileName(declared.name);
  if (!name) throw new BadRequest(UNUSABLE_FILE_NAME);
  const contentType = normaliseContentType(declared.type);
  const refusal = refusedTransferFile({ name, type: contentType });
  if (refusal) throw new BadRequest(refusal, { name });
  return { ...declared, name, contentType };
}

/**
 * The pending record of one checked declaration, not written yet: the caller writes it (with
 * whatever else must change with it) and, should that fail, drops the multipart upload started
 * here with abortPendingUploads. Transfers' files and a shop's grade files are made so.
 */
export async function pendingFileOf(options: {
  declared: DeclaredFile & { contentType: string };
  fileId: string;
  purpose: StoredFileItem['purpose'];
  owner: FileOwner;
  folder: string;
  objectKey: string;
  transferId?: string | undefined;
  tags?: Record<string, string> | undefined;
  now: Date;
}): Promise<StoredFileItem> {
  const { declared, objectKey, now } = options;
  const method = uploadMethodFor(declared.size);
  const partSize = partSizeFor(declared.size);
  return {
    fileId: options.fileId,
    purpose: options.purpose,
    ownerId: options.owner.userId,
    ...(options.transferId ? { transferId: options.transferId } : {}),
    folder: options.folder,
    name: declared.name,
    size: declared.size,
    contentType: declared.contentType,
    status: 'pending',
    uploadMethod: method,
    objectKey,
    ...(method === 'multipart'
      ? {
          uploadId: await startMultipartUpload({ key: objectKey, contentType: declared.contentType, tags: options.tags }),
          partSize,
          partCount: partCountFor(declared.size, partSize),
        }
      : {}),
    ...(declared.lastModified !== undefined ? { lastModified: declared.lastModified } : {}),
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + PENDING_LIFETIME_SECONDS,
  };
}

/** Drops the multipart uploads of pending records that could not be written; S3 out of reach leaves them to its one-day rule. */
export async function abortPendingUploads(items: readonly StoredFileItem[]): Promise<void> {
  await Promise.all(
    items.flatMap((item) =>
      item.uploadId ? [abortMultipartUpload({ key: item.objectKey, uploadId: item.uploadId }).catch(() => undefined)] : [],
    ),
  );
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

export function toFileView(file: StoredFileItem): FileView {
  return {
    id: file.fileId,
    purpose: file.purpose,
    transferId: file.transferId ?? null,
    name: file.name,
    size: file.size,
    type: file.contentType,
    status: file.status,
    uploadMethod: file.uploadMethod,
    lastModified: file.lastModified ?? null,
    checksum: file.checksum ?? null,
    createdAt: file.createdAt,
    readyAt: file.readyAt ?? null,
  };
}
