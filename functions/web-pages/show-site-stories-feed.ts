import * as feedRoutes from '../../shared/routes/feeds';
import { getConfig } from '../lib/config';
import { feedDocument } from '../lib/feeds/syndication';
import { createHandler } from '../lib/http/create-handler';
import { siteStoriesFeed } from './lib/feeds';

const config = getConfig();

export const handler = createHandler(feedRoutes.showSiteStoriesFeed, async ({ params }) =>
  feedDocument(await siteStoriesFeed(params.host, params.format, config.webOrigin), params.format),
);
