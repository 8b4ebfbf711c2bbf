import * as feedRoutes from '../../shared/routes/feeds';
import { getConfig } from '../lib/config';
import { feedDocument } from '../lib/feeds/syndication';
import { createHandler } from '../lib/http/create-handler';
import { storiesFeed } from './lib/feeds';

const config = getConfig();

export const handler = createHandler(feedRoutes.showStoriesFeed, async ({ params }) =>
  feedDocument(await storiesFeed(params.feed, params.format, config.webOrigin), params.format),
);
