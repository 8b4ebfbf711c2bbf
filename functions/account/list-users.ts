import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { getUsers } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';
import { toPublicUser } from '../lib/accounts';

export const handler = createHandler(accountRoutes.listUsers, async ({ body }) => {
  const users = await getUsers(getDb(), { userIds: body.ids });
  return { users: users.map(toPublicUser) };
});
