import * as fileRequestRoutes from '../../shared/routes/file-requests';
import { getConfig } from '../lib/config';
import { isConditionalCheckFailed } from '../lib/db/errors';
import { getDb } from '../lib/db/service';
import type { FileRequestItem } from '../lib/db/entities/file-request';
import { clientAddress } from '../lib/http/client-address';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { logger } from '../lib/logger';
import { claimLimits, clientNetwork, describeWait, hashedKeyPart, type LimitRule } from '../lib/rate-limit';
import {
  FileRequestGone,
  FileRequestNotFound,
  readFileRequest,
  RECORD_GRACE_DAYS,
  toRequestUploadView,
  whyUnavailable,
} from './lib/file-requests';
import { newEntityId } from '../lib/files/stored-files';
import { planOf } from './lib/plan';
import { issueUploadGrant } from './lib/upload-grants';

const DAY_MS = 24 * 3600 * 1000;
/** Uploads one network may start in an hour, across every request: a person sends a few, a script many. */
export const UPLOADS_PER_CLIENT_HOUR = 10;

/** Counted whether the start goes through or not: hammering a full request still costs the caller. */
export function requestUploadCallerLimits(sourceIp: string): LimitRule[] {
  return [
    {
      kind: 'window',
      key: `request-upload:network:${hashedKeyPart(clientNetwork(sourceIp))}`,
      limit: UPLOADS_PER_CLIENT_HOUR,
      windowSeconds: 3600,
      chargeEvenIfRefused: true,
      message: (wait) => `Too many uploads were started from your network. Try again in ${describeWait(wait)}.`,
    },
  ];
}

/** Takes one of the request's uploads, on condition it is open, not expired and not full; 410 saying which otherwise. */
async function takeUploadSlot(request: FileRequestItem, now: Date): Promise<void> {
  const db = getDb();
  try {
    await db.entities.fileRequest
      .patch({ requestId: request.requestId })
      .add({ uploadCount: 1 })
      .where(
        ({ status, uploadCount, availableUntil }, { eq, lt, gt }) =>
          `${eq(status, 'open')} AND ${lt(uploadCount, request.maxUploads)} AND ${gt(availableUntil, now.toISOString())}`,
      )
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    const current = await readFileRequest(db, request.requestId);
    if (!current) throw new FileRequestNotFound();
    throw new FileRequestGone(current, now);
  }
}

/**
 * Starts an upload through a request: a draft transfer of the requester's, within the
 * requester's plan now, carrying the uploader's name and note, and the grant that lets this
 * browser (and nobody else) fill and finish it. The request is read first, so a wrong link
 * costs no one's rate limit; the caller's limit is claimed before the request's upload count.
 */
export const handler = createHandler(fileRequestRoutes.startRequestUpload, async ({ params, body, event }) => {
  const db = getDb();
  const now = new Date();
  const request = await readFileRequest(db, params.id);
  if (!request) throw new FileRequestNotFound();
  if (whyUnavailable(request, now)) throw new FileRequestGone(request, now);
  await claimLimits(db, requestUploadCallerLimits(clientAddress(event, getConfig().edgeOriginToken)), now);
  const limits = await planOf(db, request.ownerId, now);
  await takeUploadSlot(request, now);
  const availableUntil = new Date(now.getTime() + limits.defaultExpiryDays * DAY_MS);
  let transfer;
  try {
    ({ data: transfer } = await db.entities.transfer
      .create({
        transferId: newEntityId(),
        ownerId: request.ownerId,
        title: request.title,
        message: body.note,
        status: 'draft',
        planId: limits.planId,
        maxTransferBytes: Math.min(limits.maxTransferBytes, request.maxUploadBytes),
        maxRecipients: limits.maxRecipients,
        createdAt: now.toISOString(),
        availableUntil: availableUntil.toISOString(),
        expiresAt: Math.ceil(availableUntil.getTime() / 1000) + RECORD_GRACE_DAYS * 24 * 3600,
        requestId: request.requestId,
        uploaderName: body.name,
        uploaderNote: body.note,
      })
      .go());
  } catch (error) {
    await db.entities.fileRequest
      .patch({ requestId: request.requestId })
      .add({ uploadCount: -1 })
      .go()
      .catch(() => undefined);
    throw error;
  }
  const grant = await issueUploadGrant(
    db,
    { requestId: request.requestId, transferId: transfer.transferId, ownerId: request.ownerId },
    now,
  );
  logger.info('Upload started through a file request', { requestId: request.requestId, transferId: transfer.transferId });
  return reply(toRequestUploadView(transfer, request.title, [], grant.expiresAt), { status: 201, cookies: [grant.cookie] });
});
