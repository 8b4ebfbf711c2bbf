import * as fileRequestRoutes from '../../shared/routes/file-requests';
import { FILE_REQUEST_LIMITS } from '../../shared/transfers/file-requests';
import { getDb } from '../lib/db/service';
import { BadRequest } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { RECORD_GRACE_DAYS, toFileRequestView } from './lib/file-requests';
import { newEntityId } from '../lib/files/stored-files';
import { planOf } from './lib/plan';
import { formatBytes } from './lib/stored-files';

const DAY_MS = 24 * 3600 * 1000;

/** A request's limits come from the requester's plan now; the requester may ask for less. */
export const handler = createHandler(fileRequestRoutes.createFileRequest, async ({ body, caller }) => {
  const db = getDb();
  const now = new Date();
  const limits = FILE_REQUEST_LIMITS[(await planOf(db, caller.userId, now)).planId];
  const days = body.expiresInDays ?? limits.defaultExpiryDays;
  if (days > limits.maxExpiryDays) {
    throw new BadRequest(`On the ${limits.planId} plan a file request lasts at most ${limits.maxExpiryDays} days.`, {
      maxExpiryDays: limits.maxExpiryDays,
      planId: limits.planId,
    });
  }
  if (body.maxUploads !== undefined && body.maxUploads > limits.maxUploads) {
    throw new BadRequest(`On the ${limits.planId} plan a file request takes at most ${limits.maxUploads} uploads.`, {
      maxUploads: limits.maxUploads,
      planId: limits.planId,
    });
  }
  if (body.maxBytes !== undefined && body.maxBytes > limits.maxRequestBytes) {
    throw new BadRequest(
      `On the ${limits.planId} plan a file request takes at most ${formatBytes(limits.maxRequestBytes)} in all.`,
      { maxBytes: limits.maxRequestBytes, planId: limits.planId },
    );
  }
  const availableUntil = new Date(now.getTime() + days * DAY_MS);
  const { data: request } = await db.entities.fileRequest
    .create({
      requestId: newEntityId(),
      ownerId: caller.userId,
      title: body.title,
      message: body.message.trim(),
      status: 'open',
      planId: limits.planId,
      maxUploads: body.maxUploads ?? limits.maxUploads,
      maxBytes: body.maxBytes ?? limits.maxRequestBytes,
      maxUploadBytes: limits.maxUploadBytes,
      createdAt: now.toISOString(),
      availableUntil: availableUntil.toISOString(),
      expiresAt: Math.ceil(availableUntil.getTime() / 1000) + RECORD_GRACE_DAYS * 24 * 3600,
    })
    .go();
  return reply(toFileRequestView(request, now), { status: 201 });
});
