import * as feedRoutes from '../../shared/routes/feeds';
import { getConfig } from '../lib/config';
import { feedDocument } from '../lib/feeds/syndication';
import { createHandler } from '../lib/http/create-handler';
import { userStoriesFeed } from './lib/feeds';

const config = getConfig();

export const handler = createHandler(feedRoutes.showUserStoriesFeed, async ({ params }) =>
  feedDocument(await userStoriesFeed(params.username, params.format, config.webOrigin), params.format),
);
