import * as transferRoutes from '../../shared/routes/transfers';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readPackage } from './lib/package';
import { packageSeo } from './lib/screens';

export const handler = createHandler(transferRoutes.showPackageScreen, async ({ params, caller }) => {
  const view = await readPackage(getDb(), params.id, caller, new Date());
  const owner = view.transfer.owner;
  return { seo: packageSeo(view.transfer.title, owner.name || `@${owner.username}`), package: view };
});
