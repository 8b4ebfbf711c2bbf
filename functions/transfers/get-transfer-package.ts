import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readPackageAnswer } from './lib/package';

export const handler = createHandler(transferRoutes.getTransferPackage, async ({ params, caller }) =>
  readPackageAnswer(getDb(), params.id, caller, new Date()),
);
