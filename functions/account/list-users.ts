import { accountRoutes } from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toPublicUser } from './accounts';
import { getUsersByIds } from './profile';

export const handler = createHandler(accountRoutes.listUsers, async ({ body }) => {
  const users = await getUsersByIds(getDb(), body.ids);
  return { users: users.map(toPublicUser) };
});
