import type { PackageView } from '../../../shared/schemas/transfers';
import type { Db } from '../../lib/db/service';
import { getUser } from '../../lib/db/users';
import type { UserCaller } from '../../lib/http/caller';
import { readManifest } from './manifest';
import { readRecentTally } from './tally';
import { checkPackageAccess, readMembership, readTransfer, TransferNotFound, verifiedEmailOf } from './transfer-access';
import { readVotes } from './transfer-reads';
import { toPackageFile, toPerson, toTransferSummary } from './transfer-views';

/**
 * A sent package as the caller (its sender or a recipient) sees it: its files from the manifest,
 * their counts from the tally and the caller's own votes. Two rounds of reads however many files:
 * the transfer and the caller's address, then everything else at once; nothing read is answered
 * before the access check has passed on it.
 */
export async function readPackage(db: Db, transferId: string, caller: UserCaller, now: Date): Promise<PackageView> {
  const [transfer, email] = await Promise.all([readTransfer(db, transferId), verifiedEmailOf(db, caller.userId)]);
  if (!transfer) throw new TransferNotFound();
  const sent = transfer.status === 'sent';
  const [member, owner, files, tally, votes] = await Promise.all([
    transfer.ownerId === caller.userId ? null : readMembership(db, transferId, email),
    getUser(db, { userId: transfer.ownerId }),
    sent ? readManifest(db, transfer) : null,
    sent ? readRecentTally(db, transferId, now.getTime()) : null,
    sent ? readVotes(db, transferId, caller.userId) : null,
  ]);
  const { isOwner } = checkPackageAccess(transfer, caller, member, now);
  if (!files || !tally || !votes) throw new TransferNotFound();
  return {
    transfer: toTransferSummary(transfer, toPerson(owner ?? undefined, transfer.ownerId), now),
    files: files.map((file) => toPackageFile(file, tally.get(file.id), votes.get(file.id) ?? null)),
    isOwner,
  };
}
