import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readUserFeed } from './lib/feeds';

export const handler = createHandler(storyRoutes.readUserFeed, async ({ params, query, caller }) =>
  readUserFeed(getDb(), { userId: params.userId, cursor: query.cursor, viewer: caller.kind === 'user' ? caller : undefined }),
);
