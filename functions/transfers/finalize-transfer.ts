import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { writeBatch } from '../lib/db/batches';
import { requireUser } from '../lib/db/users';
import { BadRequest } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { requireOwnDraft } from './lib/transfer-access';
import { requireAllReady, sealTransfer } from './lib/seal-transfer';
import { notifyRecipients } from './lib/transfer-mail';
import { listMembers, listTransferFiles } from './lib/transfer-reads';
import { newLinkKey, transferLinkUrl } from './lib/transfer-links';
import { toPerson, toTransferSummary } from './lib/transfer-views';

/**
 * Sends a draft: on condition that it is still a draft (a second click, or a second tab, gets
 * 409 and emails nobody twice), the transfer is marked sent and stops growing; then each
 * recipient's list gets it and the recipients are emailed and notified. A link transfer needs
 * no recipient: its link key is made here, kept hashed, and its link answered this once.
 */
export const handler = createHandler(transferRoutes.finalizeTransfer, async ({ params, caller }) => {
  const db = getDb();
  const now = new Date();
  const transfer = await requireOwnDraft(db, params.id, caller, now);
  const [files, members, sender] = await Promise.all([
    listTransferFiles(db, transfer.transferId),
    listMembers(db, transfer.transferId),
    requireUser(db, { userId: caller.userId }),
  ]);
  if (files.length === 0) throw new BadRequest('Add at least one file before sending.');
  const byLink = transfer.delivery === 'link';
  if (members.length === 0 && !byLink) throw new BadRequest('Add at least one recipient before sending.');
  requireAllReady(files);
  const link = byLink ? newLinkKey() : null;
  const sent = await sealTransfer(db, transfer, files, now, link ? { linkKeyHash: link.hash } : {});
  const finalizedAt = sent.finalizedAt ?? now.toISOString();
  await writeBatch({
    items: members.map((member) => ({
      email: member.email,
      transferId: sent.transferId,
      sentAt: finalizedAt,
      expiresAt: sent.expiresAt,
    })),
    send: async (items) => {
      const { unprocessed } = await db.entities.receivedTransfer.put(items).go();
      return { unprocessed: unprocessed.map((key) => ({ email: key.email })) };
    },
    keyOf: (key: { email: string }) => key.email,
    what: 'received transfers',
  });
  await notifyRecipients(db, sent, sender, files, members, now);
  return {
    ...toTransferSummary(sent, toPerson(sender, caller.userId), now),
    link: link ? transferLinkUrl(sent.transferId, link.key) : null,
  };
});
