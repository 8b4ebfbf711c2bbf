import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { writeBatch } from '../lib/db/batches';
import { requireUser } from '../lib/db/users';
import { BadRequest, Conflict } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { requireOwnDraft, TransferAlreadySent } from './lib/transfer-access';
import { notifyRecipients } from './lib/transfer-mail';
import { encodeManifest } from './lib/manifest';
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
  const link = byLink ? newLinkKey() : null;
  const notReady = files.filter((file) => file.status !== 'ready');
  if (notReady.length > 0) {
    throw new Conflict(
      `${notReady.length === 1 ? 'One file is' : `${notReady.length} files are`} still uploading: ${notReady
        .slice(0, 5)
        .map((file) => file.name)
        .join(', ')}${notReady.length > 5 ? '…' : ''}.`,
    );
  }
  const finalizedAt = now.toISOString();
  const transferId = transfer.transferId;
  // The send, the frozen file list and the empty tally in one transaction: a package exists
  // exactly when its transfer is sent.
  const result = await db.transaction
    .write(({ transfer: transfers, transferManifest, transferTally }) => [
      transfers
        .patch({ transferId })
        .set({ status: 'sent', finalizedAt, voteChanges: 0, ...(link ? { linkKeyHash: link.hash } : {}) })
        .where(({ status, fileCount }, { eq }) => `${eq(status, 'draft')} AND ${eq(fileCount, files.length)}`)
        .commit(),
      transferManifest
        .create({ transferId, fileCount: files.length, files: encodeManifest(files), expiresAt: transfer.expiresAt })
        .commit(),
      transferTally.create({ transferId, expiresAt: transfer.expiresAt }).commit(),
    ])
    .go();
  if (result.canceled) {
    const { data: current } = await db.entities.transfer.get({ transferId }).go({ consistent: true });
    if (current?.status === 'sent') throw new TransferAlreadySent();
    throw new Conflict('Files were added or removed while sending: check the list and send again.');
  }
  const sent = { ...transfer, status: 'sent' as const, finalizedAt, voteChanges: 0 };
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
    link: link ? transferLinkUrl(transferId, link.key) : null,
  };
});
