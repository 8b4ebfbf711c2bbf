import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { getUserByUsername } from '../lib/db/users';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';

export const handler = createHandler(accountRoutes.findIdByUsername, async ({ params }) => {
  const user = await getUserByUsername(getDb(), { username: params.username });
  if (!user) throw new NotFound(`There is no user with the username '${params.username}'.`);
  return { userId: user.userId, username: user.username };
});
