import * as feedRoutes from '../../shared/routes/feeds';
import { getConfig } from '../lib/config';
import { feedDocument } from '../lib/feeds/syndication';
import { createHandler } from '../lib/http/create-handler';
import { boardFeed } from './lib/feeds';

const config = getConfig();

export const handler = createHandler(feedRoutes.showBoardFeed, async ({ params, query }) =>
  feedDocument(await boardFeed(params.board, query.topic ?? null, params.format, config.webOrigin), params.format),
);
