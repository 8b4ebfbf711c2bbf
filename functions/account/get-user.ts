import { accountRoutes } from '../../shared/routes/account';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { toPublicUser } from './lib/accounts';
import { requireUserById } from './lib/profile';

export const handler = createHandler(accountRoutes.getUser, async ({ params }) =>
  toPublicUser(await requireUserById(getDb(), params.id)),
);
