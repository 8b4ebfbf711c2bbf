import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readSiteFeed } from './lib/site-stories';

export const handler = createHandler(storyRoutes.readSiteFeed, async ({ params, query, caller }) =>
  readSiteFeed(getDb(), {
    host: params.host,
    sort: query.sort ?? 'new',
    cursor: query.cursor,
    viewer: caller.kind === 'user' ? caller : undefined,
    now: new Date(),
  }),
);
