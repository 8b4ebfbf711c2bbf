import * as transferRoutes from '../../shared/routes/transfers';
import { PLAN_LIMITS } from '../../shared/transfers/plans';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { planOf } from './lib/plan';
import { transferHomeSeo } from './lib/screens';
import { listOwnTransfers, listReceivedTransfers } from './lib/transfer-lists';
import { listTransferFiles } from './lib/transfer-reads';
import { toFileView } from './lib/transfer-views';

const RECENT_SHOWN = 5;

export const handler = createHandler(transferRoutes.showTransferHome, async ({ caller }) => {
  if (caller.kind !== 'user') {
    return { seo: transferHomeSeo, limits: PLAN_LIMITS.free, signedIn: false, sent: [], received: [], draft: null };
  }
  const db = getDb();
  const now = new Date();
  const email = caller.verifiedEmail;
  const [limits, sent] = await Promise.all([planOf(db, caller.userId), listOwnTransfers(db, { ownerId: caller.userId, now })]);
  const received = email ? await listReceivedTransfers(db, { email, now }) : { transfers: [] };
  // An upload under way through one of the sender's file requests is the uploader's to resume, not theirs.
  const newestDraft = sent.transfers.find(
    (transfer) => transfer.status === 'draft' && !transfer.expired && !transfer.receivedThrough,
  );
  const draftFiles = newestDraft ? await listTransferFiles(db, newestDraft.id) : [];
  return {
    seo: transferHomeSeo,
    limits,
    signedIn: true,
    sent: sent.transfers.slice(0, RECENT_SHOWN),
    received: received.transfers.slice(0, RECENT_SHOWN),
    draft: newestDraft && draftFiles.length > 0 ? { transfer: newestDraft, files: draftFiles.map(toFileView) } : null,
  };
});
