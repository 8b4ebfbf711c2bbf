import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readPackageAnswer } from './lib/package';
import { resolvePackageCaller } from './lib/package-grants';

export const handler = createHandler(transferRoutes.getTransferPackage, async ({ params, caller, cookies }) => {
  const db = getDb();
  const now = new Date();
  const reader = await resolvePackageCaller(db, { transferId: params.id, caller, cookies, now });
  return readPackageAnswer(db, params.id, reader, now, cookies);
});
