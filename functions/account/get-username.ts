import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { requireUser } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';

export const handler = createHandler(accountRoutes.getUsername, async ({ params }) => {
  const user = await requireUser(getDb(), { userId: params.userId });
  return { userId: user.userId, username: user.username };
});
