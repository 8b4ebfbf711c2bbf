import * as transferRoutes from '../../shared/routes/transfers';
import type { TransferItem } from '../lib/db/entities/transfer';
import { getDb } from '../lib/db/service';
import { requireUser } from '../lib/db/users';
import { isConditionalCheckFailed } from '../lib/db/errors';
import { createHandler } from '../lib/http/create-handler';
import { requireOwnDraft, TransferAlreadySent } from './lib/transfer-access';
import { toPerson, toTransferSummary } from './lib/transfer-views';

/**
 * Chooses a draft's delivery and download limit again: a send that failed after its draft was made
 * is tried again with what the form says now. Only while a draft (on condition, so a send racing
 * this call goes out with one choice or the other, whole): a sent transfer's link and count stand.
 */
export const handler = createHandler(transferRoutes.setTransferDelivery, async ({ params, body, caller }) => {
  const db = getDb();
  const now = new Date();
  const [draft, owner] = await Promise.all([
    requireOwnDraft(db, params.id, caller, now),
    requireUser(db, { userId: caller.userId }),
  ]);
  const update = db.entities.transfer.patch({ transferId: draft.transferId }).set({ delivery: body.delivery });
  // A draft has served nothing: its count starts again with its limit.
  const changed =
    body.downloadLimit === null
      ? update.remove(['downloadLimit', 'downloadCount'])
      : update.set({ downloadLimit: body.downloadLimit, downloadCount: 0 });
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
