import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readNewFeed } from './lib/feeds';

export const handler = createHandler(storyRoutes.readNewFeed, async ({ query, caller }) =>
  readNewFeed(getDb(), { cursor: query.cursor, viewer: caller.kind === 'user' ? caller : undefined }),
);
