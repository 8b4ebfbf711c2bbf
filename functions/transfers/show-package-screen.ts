import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readPackage } from './lib/package';
import { resolvePackageCaller } from './lib/package-grants';
import { packageSeo } from './lib/screens';

export const handler = createHandler(transferRoutes.showPackageScreen, async ({ params, caller, cookies }) => {
  const db = getDb();
  const now = new Date();
  const reader = await resolvePackageCaller(db, { transferId: params.id, caller, cookies, now });
  const view = await readPackage(db, params.id, reader, now, cookies);
  const owner = view.transfer.owner;
  return { seo: packageSeo(view.transfer.title, owner.name || `@${owner.username}`), package: view };
});
