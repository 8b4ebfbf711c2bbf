import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toFullUser } from '../lib/accounts';
import { updateProfile } from './lib/profile';

export const handler = createHandler(accountRoutes.updateProfile, async ({ body, caller }) => {
  // The caller's own profile only: the user id comes from the session, never from the request.
  return toFullUser(await updateProfile(getDb(), caller.userId, body));
});
