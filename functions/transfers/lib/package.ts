import type { PackageView } from '../../../shared/schemas/transfers';
import type { Db } from '../../lib/db/service';
import { getUser } from '../../lib/db/users';
import type { UserCaller } from '../../lib/http/caller';
import { requirePackageAccess } from './transfer-access';
import { listTransferFiles, readVotes } from './transfer-reads';
import { toPackageFile, toPerson, toTransferSummary } from './transfer-views';

/** A sent package as the caller (its sender or a recipient) sees it: ready files, counts and their own votes. */
export async function readPackage(db: Db, transferId: string, caller: UserCaller, now: Date): Promise<PackageView> {
  const { transfer, isOwner } = await requirePackageAccess(db, transferId, caller, now);
  const [owner, files, votes] = await Promise.all([
    getUser(db, { userId: transfer.ownerId }),
    listTransferFiles(db, transferId),
    readVotes(db, transferId, caller.userId),
  ]);
  return {
    transfer: toTransferSummary(transfer, toPerson(owner ?? undefined, transfer.ownerId), now),
    files: files.filter((file) => file.status === 'ready').map((file) => toPackageFile(file, votes.get(file.fileId) ?? null)),
    isOwner,
  };
}
