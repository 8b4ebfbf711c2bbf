import { accountRoutes } from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toPublicUser } from './lib/accounts';
import { getUsersByIds } from './lib/profile';

export const handler = createHandler(accountRoutes.listUsers, async ({ body }) => {
  const users = await getUsersByIds(getDb(), body.ids);
  return { users: users.map(toPublicUser) };
});
