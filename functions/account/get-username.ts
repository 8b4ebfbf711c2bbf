import { accountRoutes } from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { requireUserById } from './lib/profile';

export const handler = createHandler(accountRoutes.getUsername, async ({ params }) => {
  const user = await requireUserById(getDb(), params.userId);
  return { userId: user.userId, username: user.username };
});
