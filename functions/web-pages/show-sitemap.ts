import * as webPageRoutes from '../../shared/routes/web-pages';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { TextDocument } from '../lib/http/responses';
import { getBoardReader } from '../ranking/lib/ranking-context';
import { archivePaths, profilePaths, rankingPaths } from './lib/public-paths';
import { buildSitemap } from './lib/sitemap';

const config = getConfig();
/** The transfer app's own sitemap (GET /api/i/ourTransfers/sitemap/xml). */
const OTHER_SITEMAPS = ['/api/i/ourTransfers/sitemap/xml'];

export const handler = createHandler(webPageRoutes.showSitemap, async ({ query }) => {
  const [manifest, archive, profiles] = await Promise.all([
    getBoardReader().getManifest(),
    archivePaths(getDb()),
    profilePaths(getDb()),
  ]);
  const document = buildSitemap(
    { origin: config.webOrigin, paths: [...rankingPaths(manifest), ...archive, ...profiles], otherSitemaps: OTHER_SITEMAPS },
    query.part,
  );
  if (document === null) throw new NotFound(`There is no sitemap part ${query.part ?? ''}.`);
  return new TextDocument('application/xml; charset=utf-8', document);
});
