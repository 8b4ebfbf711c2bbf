import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { filterFollowing } from './lib/follows';

export const handler = createHandler(storyRoutes.filterFollowingIds, async ({ query, caller }) => ({
  ids: caller.kind === 'user' ? await filterFollowing(getDb(), caller.userId, query.userIds) : [],
}));
