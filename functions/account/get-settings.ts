import { accountRoutes } from '../../shared/routes/account';
import type { UserSettings } from '../../shared/schemas/account';
import { getDb } from '../lib/db/service';
import { Unauthorized } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { getUserById } from './lib/profile';

export const handler = createHandler(accountRoutes.getSettings, async ({ caller }) => {
  const user = await getUserById(getDb(), caller.userId);
  // The session outlived its account (deleted meanwhile): treat as signed out.
  if (!user) throw new Unauthorized();
  return { settings: (user.settings ?? {}) as UserSettings };
});
