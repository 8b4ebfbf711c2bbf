import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { checkUsername } from '../lib/accounts';

export const handler = createHandler(accountRoutes.checkUsernameIsFree, async ({ query }) => {
  const verdict = await checkUsername(getDb(), query.username);
  return { username: query.username.trim(), ...verdict };
});
