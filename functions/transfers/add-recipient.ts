import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { getUser, requireUser } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';
import { readManifest } from './lib/manifest';
import { addMember } from './lib/recipients';
import { isExpired, refuseUploadInProgress, requireOwnTransfer, TransferExpired } from './lib/transfer-access';
import { notifyRecipients } from './lib/transfer-mail';
import { toMemberView } from './lib/transfer-views';

export const handler = createHandler(transferRoutes.addRecipient, async ({ params, body, caller }) => {
  const db = getDb();
  const now = new Date();
  const transfer = await requireOwnTransfer(db, params.id, caller);
  if (isExpired(transfer, now)) throw new TransferExpired(transfer.availableUntil);
  refuseUploadInProgress(transfer, caller);
  const email = body.email.trim().toLowerCase();
  const { member, added } = await addMember(db, transfer, email, now);
  let notifiedAt = member.notifiedAt;
  // Added after the send: they are told now, as the others were at the send.
  if (added && transfer.status === 'sent') {
    const [sender, files] = await Promise.all([requireUser(db, { userId: caller.userId }), readManifest(db, transfer)]);
    const emailed = await notifyRecipients(db, transfer, sender, files ?? [], [member], now);
    if (emailed.length > 0) notifiedAt = now.toISOString();
  }
  const user = member.userId ? await getUser(db, { userId: member.userId }) : null;
  return { member: toMemberView({ ...member, ...(notifiedAt ? { notifiedAt } : {}) }, user ?? undefined) };
});
