import type { Db } from '../../lib/db/service';
import type { FileRequestItem } from '../../lib/db/entities/file-request';
import type { StoredFileItem } from '../../lib/db/entities/stored-file';
import type { TransferItem } from '../../lib/db/entities/transfer';
import { Conflict, Unauthorized } from '../../lib/errors';
import { defineTokenPurpose, issueToken, readToken } from '../../lib/one-time-tokens';
import { readFileRequest, requireAcceptingFiles } from './file-requests';
import { FileNotFound, requireOwnFile } from '../../lib/files/stored-files';
import type { FileOwner } from './stored-files';
import { readTransfer } from './transfer-access';

/**
 * An upload grant: what starting an upload through a file request gives its uploader, who has
 * no account. It opens that one upload's steps (add files, send their bytes, finalize them,
 * finish, see what they sent) and nothing else: the request pipeline never reads it, only the
 * upload routes do, and it is sent only to that upload's paths. The upload is a transfer of the
 * requester's, so the grant acts for the requester on that transfer's files only. Stored as a
 * one-time token is (only its hash), read, never spent.
 */
export const REQUEST_UPLOAD_GRANT = defineTokenPurpose<{ requestId: string; transferId: string; ownerId: string }>(
  'request-upload-grant',
  { lifetimeSeconds: 7 * 24 * 3600 },
);

const GRANT_COOKIE_PREFIX = 'rug_';
export const uploadGrantCookieName = (transferId: string) => `${GRANT_COOKIE_PREFIX}${transferId}`;
/** The upload's own paths: the browser sends the grant there and nowhere else. */
export const uploadGrantPath = (transferId: string) => `/api/i/transfer/request-upload/${transferId}/`;

export function uploadGrantCookie(transferId: string, token: string, maxAgeSeconds: number): string {
  return `${uploadGrantCookieName(transferId)}=${token}; Path=${uploadGrantPath(transferId)}; HttpOnly; Secure; SameSite=Lax; Max-Age=${Math.max(0, maxAgeSeconds)}`;
}

export async function issueUploadGrant(
  db: Db,
  grant: { requestId: string; transferId: string; ownerId: string },
  now: Date,
): Promise<{ cookie: string; expiresAt: string }> {
  const { token, expiresAt } = await issueToken(db, REQUEST_UPLOAD_GRANT, { payload: grant, now });
  return {
    cookie: uploadGrantCookie(grant.transferId, token, expiresAt - Math.floor(now.getTime() / 1000)),
    expiresAt: new Date(expiresAt * 1000).toISOString(),
  };
}

/** An upload its grant opens: the transfer, its request (null once deleted), and whom its files belong to. */
export interface GrantedUpload {
  transfer: TransferItem;
  request: FileRequestItem | null;
  owner: FileOwner;
  grantExpiresAt: string;
}

/**
 * The upload this request's grant opens: 401 without a valid grant for this very upload (none,
 * expired, or another upload's), as the routes answer anyone who never started one.
 */
export async function requireGrantedUpload(
  db: Db,
  options: { transferId: string; cookies: Readonly<Record<string, string>>; now: Date },
): Promise<GrantedUpload> {
  const refusal = new Unauthorized('Open the request link again to upload: this upload is not open in this browser.');
  const token = options.cookies[uploadGrantCookieName(options.transferId)];
  if (!token) throw refusal;
  const stored = await readToken(db, REQUEST_UPLOAD_GRANT, token);
  if (!stored || stored.usedAt || stored.expiresAt <= Math.floor(options.now.getTime() / 1000)) throw refusal;
  if (stored.payload.transferId !== options.transferId) throw refusal;
  const [transfer, request] = await Promise.all([
    readTransfer(db, options.transferId),
    readFileRequest(db, stored.payload.requestId),
  ]);
  // The requester deleted the upload's transfer: nothing is left to open.
  if (!transfer || transfer.requestId !== stored.payload.requestId || transfer.ownerId !== stored.payload.ownerId) throw refusal;
  return {
    transfer,
    request,
    // The one actor the owner's routes let into a draft a file request's upload is filling.
    owner: { userId: transfer.ownerId, throughUpload: transfer.transferId },
    grantExpiresAt: new Date(stored.expiresAt * 1000).toISOString(),
  };
}

/** An upload that may still change: its request open (404 deleted, 410 closed or expired), the upload not finished (409). */
export function requireChangeableUpload(upload: GrantedUpload, now: Date): FileRequestItem {
  const request = requireAcceptingFiles(upload.request, now);
  if (upload.transfer.status !== 'draft') throw new Conflict('This upload is finished: it takes no more changes.');
  return request;
}

/** A file of this upload; 404 for any other, the requester's own files and other uploads' included, as for none. */
export async function requireUploadFile(db: Db, upload: GrantedUpload, fileId: string): Promise<StoredFileItem> {
  const file = await requireOwnFile(db, fileId, upload.owner);
  if (file.transferId !== upload.transfer.transferId) throw new FileNotFound();
  return file;
}
