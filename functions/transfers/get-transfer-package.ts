import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readPackage } from './lib/package';

export const handler = createHandler(transferRoutes.getTransferPackage, async ({ params, caller }) =>
  readPackage(getDb(), params.id, caller, new Date()),
);
