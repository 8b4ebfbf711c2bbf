import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { requireStory, storyFor } from './lib/story-relations';

export const handler = createHandler(storyRoutes.getStory, async ({ params, caller }) => {
  const db = getDb();
  const story = await requireStory(db, params.id);
  return { story: await storyFor(db, story, caller.kind === 'user' ? caller : undefined) };
});
