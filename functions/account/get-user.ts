import * as accountRoutes from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { requireUser } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';
import { toPublicUser } from '../lib/accounts';

export const handler = createHandler(accountRoutes.getUser, async ({ params }) =>
  toPublicUser(await requireUser(getDb(), { userId: params.id })),
);
