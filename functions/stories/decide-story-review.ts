import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { requireStory, storyFor } from './lib/story-relations';
import { decideReview } from './lib/story-review';

export const handler = createHandler(storyRoutes.decideStoryReview, async ({ params, caller }) => {
  const db = getDb();
  await decideReview(db, await requireStory(db, params.id), caller.userId, params.decision, new Date());
  return { story: await storyFor(db, await requireStory(db, params.id), caller) };
});
