import type { FileRequestView, PublicFileRequest, RequestUploadView } from '../../../shared/schemas/file-requests';
import { fileRequestPath } from '../../../shared/transfers/file-requests';
import type { Db } from '../../lib/db/service';
import type { FileRequestItem } from '../../lib/db/entities/file-request';
import type { StoredFileItem } from '../../lib/db/entities/stored-file';
import type { TransferItem } from '../../lib/db/entities/transfer';
import type { UserCaller } from '../../lib/http/caller';
import { isConditionalCheckFailed } from '../../lib/db/errors';
import { BadRequest, Conflict, Gone, NotFound } from '../../lib/errors';
import { formatBytes } from './stored-files';
import { toFileView } from './transfer-views';

/**
 * Records stay this long after they stop being available (as a transfer's do, create-transfer.ts),
 * so a link can still say it expired.
 */
export const RECORD_GRACE_DAYS = 30;

/** Anyone but the owner is told a request does not exist (404), as for an id that names nothing. */
export class FileRequestNotFound extends NotFound {
  constructor() {
    super('There is no such file request: check the link you were given.');
  }
}

/** Closed by its owner, past its date, or full: the link says which, and takes nothing more. */
export class FileRequestGone extends Gone {
  constructor(request: FileRequestItem, now: Date) {
    const reason = whyUnavailable(request, now);
    super(
      reason === 'closed'
        ? 'This file request was closed by the person who made it: it takes no more files.'
        : reason === 'expired'
          ? `This file request expired on ${request.availableUntil.slice(0, 10)}: it takes no more files.`
          : 'This file request has received all the uploads it takes.',
      { reason, code: `REQUEST_${(reason ?? 'closed').toUpperCase()}` },
    );
  }
}

export const isRequestExpired = (request: Pick<FileRequestItem, 'availableUntil'>, now: Date) =>
  Date.parse(request.availableUntil) <= now.getTime();

/** Why a request takes no new upload, or null when it does. */
export function whyUnavailable(request: FileRequestItem, now: Date): 'closed' | 'expired' | 'full' | null {
  if (request.status === 'closed') return 'closed';
  if (isRequestExpired(request, now)) return 'expired';
  if (request.uploadCount >= request.maxUploads) return 'full';
  return null;
}

export async function readFileRequest(db: Db, requestId: string): Promise<FileRequestItem | null> {
  const { data } = await db.entities.fileRequest.get({ requestId }).go({ consistent: true });
  return data;
}

/** The caller's own request (open or not), or 404. */
export async function requireOwnRequest(db: Db, requestId: string, caller: UserCaller): Promise<FileRequestItem> {
  const request = await readFileRequest(db, requestId);
  if (!request || request.ownerId !== caller.userId) throw new FileRequestNotFound();
  return request;
}

/** A request that still takes files from uploads already started: 404 once deleted, 410 once closed or expired. */
export function requireAcceptingFiles(request: FileRequestItem | null, now: Date): FileRequestItem {
  if (!request) throw new FileRequestNotFound();
  const reason = whyUnavailable(request, now);
  // A full request still takes the files of the uploads it already let in.
  if (reason && reason !== 'full') throw new FileRequestGone(request, now);
  return request;
}

export function toFileRequestView(request: FileRequestItem, now: Date): FileRequestView {
  return {
    id: request.requestId,
    title: request.title,
    message: request.message,
    status: request.status,
    planId: request.planId,
    createdAt: request.createdAt,
    closedAt: request.closedAt ?? null,
    expiresAt: request.availableUntil,
    expired: isRequestExpired(request, now),
    maxUploads: request.maxUploads,
    maxBytes: request.maxBytes,
    maxUploadBytes: request.maxUploadBytes,
    uploadCount: request.uploadCount,
    finishedCount: request.finishedCount,
    totalBytes: request.totalBytes,
    path: fileRequestPath(request.requestId),
  };
}

export function toPublicFileRequest(request: FileRequestItem, requester: PublicFileRequest['requester']): PublicFileRequest {
  return {
    id: request.requestId,
    title: request.title,
    message: request.message,
    requester,
    expiresAt: request.availableUntil,
    maxUploadBytes: request.maxUploadBytes,
    remainingBytes: Math.max(0, request.maxBytes - request.totalBytes),
  };
}

export function toRequestUploadView(
  transfer: TransferItem,
  requestTitle: string,
  files: readonly StoredFileItem[],
  grantExpiresAt: string,
): RequestUploadView {
  return {
    id: transfer.transferId,
    requestId: transfer.requestId ?? '',
    requestTitle,
    uploaderName: transfer.uploaderName ?? '',
    note: transfer.uploaderNote ?? '',
    status: transfer.status === 'sent' ? 'finished' : 'uploading',
    createdAt: transfer.createdAt,
    finishedAt: transfer.finalizedAt ?? null,
    grantExpiresAt,
    maxUploadBytes: transfer.maxTransferBytes,
    files: files.map(toFileView),
  };
}

/**
 * Takes `bytes` of what the request has left, in one conditional write (concurrent uploaders
 * cannot overfill it), before the files are created; giveBackRequestBytes returns them when the
 * files are refused or removed. 400 when they do not fit, 410 once the request closed or expired.
 */
export async function takeRequestBytes(db: Db, request: FileRequestItem, bytes: number, now: Date): Promise<void> {
  if (request.totalBytes + bytes > request.maxBytes) {
    throw new BadRequest(
      `This file request takes ${formatBytes(request.maxBytes)} in all and has ${formatBytes(Math.max(0, request.maxBytes - request.totalBytes))} left: these files make ${formatBytes(bytes)}.`,
      { code: 'REQUEST_TOO_LARGE', remainingBytes: Math.max(0, request.maxBytes - request.totalBytes) },
    );
  }
  try {
    await db.entities.fileRequest
      .patch({ requestId: request.requestId })
      .add({ totalBytes: bytes })
      .where(
        ({ status, totalBytes, availableUntil }, { eq, lte, gt }) =>
          `${eq(status, 'open')} AND ${lte(totalBytes, request.maxBytes - bytes)} AND ${gt(availableUntil, now.toISOString())}`,
      )
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    const current = await readFileRequest(db, request.requestId);
    requireAcceptingFiles(current, now);
    if (current && current.totalBytes + bytes > current.maxBytes) return takeRequestBytes(db, current, bytes, now);
    throw new Conflict('The file request changed meanwhile: try again.', { cause: error });
  }
}

/** Gives bytes back to a request (files refused or removed); a deleted request needs none. */
export async function giveBackRequestBytes(db: Db, requestId: string, bytes: number): Promise<void> {
  if (bytes <= 0) return;
  await db.entities.fileRequest
    .patch({ requestId })
    .add({ totalBytes: -bytes })
    .go()
    .catch((error: unknown) => {
      if (!isConditionalCheckFailed(error)) throw error;
    });
}
