/**
 * Seeds, straight into the running local runtime's table, a sent transfer of 1,000 ready files
 * with one recipient and votes on them, as a send leaves it, for the package page under load. Prints one JSON line: the transfer id and
 * the recipient's session token.
 */
import { transferFolder } from '../../functions/lib/db/entities/stored-file';
import { writeBatch } from '../../functions/lib/db/batches';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { encodeManifest } from '../../functions/transfers/lib/manifest';
import { countAttribute } from '../../functions/transfers/lib/tally';
import { db, signIn } from './bench-session';

const FILES = 1_000;
const sender = await signIn('package-sender');
const recipient = await signIn('package-recipient');
const { data: recipientUser } = await db.entities.user.get({ userId: recipient.userId }).go();
if (!recipientUser?.email) throw new Error('The recipient has no address');
const now = new Date();
const transferId = `bench-${now.getTime()}`;
const expiresAt = Math.floor(now.getTime() / 1000) + 8 * 86_400;
await db.entities.transfer
  .create({
    transferId,
    ownerId: sender.userId,
    title: 'A thousand files',
    message: '',
    status: 'sent',
    planId: 'free',
    maxTransferBytes: 2e9,
    maxRecipients: 50,
    fileCount: FILES,
    totalBytes: FILES * 1_000_000,
    recipientCount: 1,
    createdAt: now.toISOString(),
    finalizedAt: now.toISOString(),
    availableUntil: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
    expiresAt,
  })
  .go();
await db.entities.transferMember
  .create({
    transferId,
    email: recipientUser.email,
    userId: recipient.userId,
    addedAt: now.toISOString(),
    downloads: [],
    expiresAt,
  })
  .go();
const files = Array.from({ length: FILES }, (_, index) => ({
  fileId: `${transferId}-file-${String(index).padStart(4, '0')}`,
  purpose: 'transfer' as const,
  ownerId: sender.userId,
  transferId,
  folder: transferFolder(transferId),
  name: `photo-${index + 1}.jpg`,
  size: 1_000_000,
  contentType: 'image/jpeg',
  status: 'ready' as const,
  uploadMethod: 'post' as const,
  objectKey: `transfers/${transferId}/${index}`,
  checksum: 'd41d8cd98f00b204e9800998ecf8427e',
  createdAt: new Date(now.getTime() + index).toISOString(),
  readyAt: now.toISOString(),
  expiresAt,
}));
await writeBatch({
  items: files,
  send: async (items) => {
    const { unprocessed } = await db.entities.storedFile.put(items).go();
    return { unprocessed: unprocessed.map((key) => ({ fileId: key.fileId })) };
  },
  keyOf: (key: { fileId: string }) => key.fileId,
  what: 'files',
});
// What the send writes: the frozen file list and the counts, as recipients left them.
await db.entities.transferManifest.create({ transferId, fileCount: FILES, files: encodeManifest(files), expiresAt }).go();
const { Key, TableName } = db.entities.transferTally
  .get({ transferId })
  .params<{ Key: Record<string, string>; TableName: string }>();
const counts = Object.fromEntries(
  files.flatMap((file, index) => [
    [countAttribute('like', file.fileId), index % 7],
    [countAttribute('dislike', file.fileId), index % 3],
  ]),
);
// As many vote changes as the counts add up to, on the tally and on the transfer, as votes leave them.
const changes = Object.values(counts).reduce((sum, count) => sum + count, 0);
await db.client.send(new PutCommand({ TableName, Item: { ...Key, transferId, expiresAt, ...counts, changes } }));
await db.entities.transfer.patch({ transferId }).set({ voteChanges: changes }).go();
console.log(JSON.stringify({ transferId, token: recipient.token }));
