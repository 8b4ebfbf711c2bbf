import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { getUser, getUsers } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';
import { planOf } from './lib/plan';
import { requireOwnTransfer } from './lib/transfer-access';
import { listMembers, listTransferFiles } from './lib/transfer-reads';
import { readTally } from './lib/tally';
import { toFileView, toMemberView, toPackageFile, toPerson, toTransferSummary } from './lib/transfer-views';

export const handler = createHandler(transferRoutes.getTransfer, async ({ params, caller }) => {
  const db = getDb();
  const now = new Date();
  const transfer = await requireOwnTransfer(db, params.id, caller);
  const [owner, files, members, limits, tally] = await Promise.all([
    getUser(db, { userId: caller.userId }),
    listTransferFiles(db, transfer.transferId),
    listMembers(db, transfer.transferId),
    planOf(db, caller.userId),
    readTally(db, transfer.transferId),
  ]);
  const users = await getUsers(db, { userIds: members.flatMap((member) => (member.userId ? [member.userId] : [])) });
  const usersById = new Map(users.map((user) => [user.userId, user]));
  return {
    transfer: toTransferSummary(transfer, toPerson(owner ?? undefined, caller.userId), now),
    files: files.map((file) => toPackageFile(toFileView(file), tally.counts.get(file.fileId), null)),
    members: members.map((member) => toMemberView(member, member.userId ? usersById.get(member.userId) : undefined)),
    limits,
  };
});
