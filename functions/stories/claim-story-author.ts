import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { requireStory, storyFor } from './lib/story-relations';
import { setAuthorClaim } from './lib/story-review';

export const handler = createHandler(storyRoutes.claimStoryAuthor, async ({ params, caller }) => {
  const db = getDb();
  await setAuthorClaim(db, params.id, caller.userId, params.status, new Date());
  return { story: await storyFor(db, await requireStory(db, params.id), caller) };
});
