import { accountRoutes } from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { Unauthorized } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { isConditionalCheckFailed } from '../lib/rate-limit';

export const handler = createHandler(accountRoutes.updateEmailPreferences, async ({ body, caller }) => {
  try {
    // patch: only an existing account (a session may outlive a deleted one).
    await getDb().entities.user.patch({ userId: caller.userId }).set({ emailPreferences: body }).go();
  } catch (error) {
    if (isConditionalCheckFailed(error)) throw new Unauthorized();
    throw error;
  }
  return { emailPreferences: body };
});
