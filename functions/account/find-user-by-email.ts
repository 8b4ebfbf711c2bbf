import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { getUserByEmail } from '../lib/db/users';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { toFullUser } from '../lib/accounts';

// Access 'app': only registered apps and superusers get here, so emails cannot be enumerated.
export const handler = createHandler(accountRoutes.findUserByEmail, async ({ query }) => {
  const user = await getUserByEmail(getDb(), { email: query.email });
  if (!user) throw new NotFound('There is no user with that email.');
  return { user: toFullUser(user) };
});
