import * as storeRoutes from '../../shared/routes/store';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { replaceCartWith } from './lib/cart';

export const handler = createHandler(storeRoutes.replaceCartWithItem, async ({ body, caller }) =>
  replaceCartWith(getDb(), caller.userId, body, new Date()),
);
