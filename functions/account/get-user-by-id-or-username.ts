import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { getUser, getUserByUsername } from '../lib/db/users';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { toPublicUser } from '../lib/accounts';

export const handler = createHandler(accountRoutes.getUserByIdOrUsername, async ({ params }) => {
  const db = getDb();
  const user = (await getUser(db, { userId: params.id })) ?? (await getUserByUsername(db, { username: params.id }));
  if (!user) throw new NotFound(`There is no user with the id or username '${params.id}'.`);
  return toPublicUser(user);
});
