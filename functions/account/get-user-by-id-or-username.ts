import { accountRoutes } from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { toPublicUser } from './lib/accounts';
import { getUserById, getUserByUsername } from './lib/profile';

export const handler = createHandler(accountRoutes.getUserByIdOrUsername, async ({ params }) => {
  const db = getDb();
  const user = (await getUserById(db, params.id)) ?? (await getUserByUsername(db, params.id));
  if (!user) throw new NotFound(`There is no user with the id or username '${params.id}'.`);
  return toPublicUser(user);
});
