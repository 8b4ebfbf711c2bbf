import * as accountRoutes from '../../shared/routes/account';
import type { UserSettings } from '../../shared/schemas/account';
import { getDb } from '../lib/db/service';
import { requireUserOfSession } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';

export const handler = createHandler(accountRoutes.getSettings, async ({ caller }) => {
  const user = await requireUserOfSession(getDb(), { userId: caller.userId });
  return { settings: (user.settings ?? {}) as UserSettings };
});
