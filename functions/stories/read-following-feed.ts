import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readFollowingFeed } from './lib/feeds';

export const handler = createHandler(storyRoutes.readFollowingFeed, async ({ query, caller }) =>
  readFollowingFeed(getDb(), { cursor: query.cursor, viewer: caller, now: new Date() }),
);
