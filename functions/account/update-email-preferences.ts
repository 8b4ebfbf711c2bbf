import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { setEmailPreferences } from '../lib/db/users';
import { Unauthorized } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';

export const handler = createHandler(accountRoutes.updateEmailPreferences, async ({ body, caller }) => {
  // The session outlived its account (deleted meanwhile): treat as signed out.
  if (!(await setEmailPreferences(getDb(), { userId: caller.userId, emailPreferences: body }))) throw new Unauthorized();
  return { emailPreferences: body };
});
