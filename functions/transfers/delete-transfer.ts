import * as transferRoutes from '../../shared/routes/transfers';
import { writeBatch } from '../lib/db/batches';
import { getDb } from '../lib/db/service';
import { objectKeysOf } from '../lib/db/entities/stored-file';
import { getUser } from '../lib/db/users';
import { abortMultipartUpload, deleteObjects } from '../lib/files/file-bucket';
import { createHandler } from '../lib/http/create-handler';
import { requireOwnTransfer } from './lib/transfer-access';
import { listMembers, listTransferFiles } from './lib/transfer-reads';
import { toPerson, toTransferSummary } from './lib/transfer-views';

/**
 * Deletes a transfer at once: the bytes first (so nothing stays readable through a link handed out
 * earlier: a presigned GET of a deleted object fails), then the recipients' lists, the members,
 * the files and the transfer itself, last, so a delete cut short can simply be repeated.
 */
export const handler = createHandler(transferRoutes.deleteTransfer, async ({ params, caller }) => {
  const db = getDb();
  const now = new Date();
  const transfer = await requireOwnTransfer(db, params.id, caller);
  const [files, members] = await Promise.all([listTransferFiles(db, transfer.transferId), listMembers(db, transfer.transferId)]);
  await Promise.all(
    files.flatMap((file) =>
      file.uploadId && file.status === 'pending' ? [abortMultipartUpload({ key: file.objectKey, uploadId: file.uploadId })] : [],
    ),
  );
  await deleteObjects(files.flatMap(objectKeysOf));
  const transferId = transfer.transferId;
  await writeBatch({
    items: members.map((member) => ({ email: member.email, transferId, sentAt: transfer.finalizedAt ?? '' })),
    send: async (keys) => {
      if (!transfer.finalizedAt) return { unprocessed: [] };
      const { unprocessed } = await db.entities.receivedTransfer.delete(keys).go();
      return { unprocessed: unprocessed.map((key) => ({ email: key.email, transferId, sentAt: transfer.finalizedAt ?? '' })) };
    },
    keyOf: (key) => key.email,
    what: 'received transfers',
  });
  await writeBatch({
    items: members.map((member) => ({ transferId, email: member.email })),
    send: async (keys) => {
      const { unprocessed } = await db.entities.transferMember.delete(keys).go();
      return { unprocessed: unprocessed.map((key) => ({ transferId, email: key.email })) };
    },
    keyOf: (key) => key.email,
    what: 'transfer members',
  });
  await writeBatch({
    items: files.map((file) => ({ fileId: file.fileId })),
    send: async (keys) => {
      const { unprocessed } = await db.entities.storedFile.delete(keys).go();
      return { unprocessed: unprocessed.map((key) => ({ fileId: key.fileId })) };
    },
    keyOf: (key) => key.fileId,
    what: 'transfer files',
  });
  await Promise.all([
    db.entities.transferManifest.delete({ transferId }).go(),
    db.entities.transferTally.delete({ transferId }).go(),
  ]);
  await db.entities.transfer.delete({ transferId }).go();
  const owner = await getUser(db, { userId: caller.userId });
  return toTransferSummary({ ...transfer, fileCount: 0, totalBytes: 0 }, toPerson(owner ?? undefined, caller.userId), now);
});
