import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { requireUser } from '../lib/db/users';
import { BadRequest } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { newEntityId } from '../lib/files/stored-files';
import { hashTransferPassword, requirePasswordAllowed } from './lib/package-password';
import { planOf } from './lib/plan';
import { toPerson, toTransferSummary } from './lib/transfer-views';

const DAY_MS = 24 * 3600 * 1000;
/** Records stay this long after the transfer ends, so its link can still say when it expired. */
export const RECORD_GRACE_DAYS = 30;

export const handler = createHandler(transferRoutes.createTransfer, async ({ body, caller }) => {
  const db = getDb();
  const now = new Date();
  const [owner, limits] = await Promise.all([requireUser(db, { userId: caller.userId }), planOf(db, caller.userId)]);
  const days = body.expiresInDays ?? limits.defaultExpiryDays;
  if (days > limits.maxExpiryDays) {
    throw new BadRequest(`On the ${limits.planId} plan a transfer lasts at most ${limits.maxExpiryDays} days.`, {
      maxExpiryDays: limits.maxExpiryDays,
      planId: limits.planId,
    });
  }
  if (body.password !== undefined) requirePasswordAllowed(limits);
  const passwordHash = body.password === undefined ? undefined : await hashTransferPassword(body.password);
  const availableUntil = new Date(now.getTime() + days * DAY_MS);
  const { data: transfer } = await db.entities.transfer
    .create({
      transferId: newEntityId(),
      ownerId: caller.userId,
      title: body.title.trim(),
      message: body.message.trim(),
      status: 'draft',
      planId: limits.planId,
      maxTransferBytes: limits.maxTransferBytes,
      maxRecipients: limits.maxRecipients,
      createdAt: now.toISOString(),
      availableUntil: availableUntil.toISOString(),
      delivery: body.delivery,
      ...(body.downloadLimit === undefined ? {} : { downloadLimit: body.downloadLimit, downloadCount: 0 }),
      expiresAt: Math.ceil(availableUntil.getTime() / 1000) + RECORD_GRACE_DAYS * 24 * 3600,
      ...(passwordHash ? { passwordHash } : {}),
    })
    .go();
  return reply(toTransferSummary(transfer, toPerson(owner, caller.userId), now), { status: 201 });
});
