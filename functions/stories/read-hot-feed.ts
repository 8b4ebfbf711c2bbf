import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readHotFeed } from './lib/feeds';

export const handler = createHandler(storyRoutes.readHotFeed, async ({ query, caller }) =>
  readHotFeed(getDb(), { cursor: query.cursor, viewer: caller.kind === 'user' ? caller : undefined, now: new Date() }),
);
