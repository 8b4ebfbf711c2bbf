import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { redirect } from '../lib/http/responses';
import { recordRedirect, requireStory } from './lib/story-relations';

export const handler = createHandler(storyRoutes.openStory, async ({ params, caller }) => {
  const db = getDb();
  const story = await requireStory(db, params.id);
  if (caller.kind === 'user' && caller.userId !== story.sharerId)
    await recordRedirect(db, story.storyId, caller.userId, new Date());
  return redirect(story.url);
});
