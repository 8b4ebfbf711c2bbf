import * as transferRoutes from '../../shared/routes/transfers';
import type { TransferItem } from '../lib/db/entities/transfer';
import { getDb } from '../lib/db/service';
import { requireUser } from '../lib/db/users';
import { isConditionalCheckFailed } from '../lib/db/errors';
import { createHandler } from '../lib/http/create-handler';
import { hashTransferPassword, requirePasswordAllowed } from './lib/package-password';
import { planOf } from './lib/plan';
import { requireOwnDraft, TransferAlreadySent } from './lib/transfer-access';
import { toPerson, toTransferSummary } from './lib/transfer-views';

/**
 * Sets or removes a draft's password. Only while a draft (on condition, so a send racing this
 * call either goes out with the password it had or refuses the change): a sent package's
 * recipients hold unlocks made with the password they were given.
 */
export const handler = createHandler(transferRoutes.setTransferPassword, async ({ params, body, caller }) => {
  const db = getDb();
  const now = new Date();
  const [draft, owner] = await Promise.all([
    requireOwnDraft(db, params.id, caller, now),
    requireUser(db, { userId: caller.userId }),
  ]);
  if (body.password !== null) requirePasswordAllowed(await planOf(db, caller.userId, now));
  const update = db.entities.transfer.patch({ transferId: draft.transferId });
  const changed =
    body.password === null
      ? update.remove(['passwordHash'])
      : update.set({ passwordHash: await hashTransferPassword(body.password) });
  let data: TransferItem;
  try {
    ({ data } = (await changed.where(({ status }, { eq }) => eq(status, 'draft')).go({ response: 'all_new' })) as {
      data: TransferItem;
    });
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new TransferAlreadySent();
    throw error;
  }
  return toTransferSummary(data, toPerson(owner, caller.userId), now);
});
