import { accountRoutes } from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { getUserByUsername } from './lib/profile';

export const handler = createHandler(accountRoutes.findIdByUsername, async ({ params }) => {
  const user = await getUserByUsername(getDb(), params.username);
  if (!user) throw new NotFound(`There is no user with the username '${params.username}'.`);
  return { userId: user.userId, username: user.username };
});
