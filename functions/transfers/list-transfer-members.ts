import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { getUsers } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';
import { requireOwnTransfer } from './lib/transfer-access';
import { listMembers } from './lib/transfer-reads';
import { toMemberView } from './lib/transfer-views';

export const handler = createHandler(transferRoutes.listTransferMembers, async ({ params, caller }) => {
  const db = getDb();
  const transfer = await requireOwnTransfer(db, params.id, caller);
  const members = await listMembers(db, transfer.transferId);
  const users = await getUsers(db, { userIds: members.flatMap((member) => (member.userId ? [member.userId] : [])) });
  const usersById = new Map(users.map((user) => [user.userId, user]));
  return { members: members.map((member) => toMemberView(member, member.userId ? usersById.get(member.userId) : undefined)) };
});
