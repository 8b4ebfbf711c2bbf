import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { getUser } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';
import { editComment, toComment } from './lib/comments';
import { requireStory } from './lib/story-relations';

export const handler = createHandler(storyRoutes.editStoryComment, async ({ params, body, caller }) => {
  const db = getDb();
  const now = new Date();
  const edited = await editComment(db, { storyId: params.id, commentId: params.commentId, userId: caller.userId, body: body.body, now });
  const [author, story] = await Promise.all([getUser(db, { userId: caller.userId }), requireStory(db, params.id)]);
  return { comment: toComment(edited, author, caller, now), commentCount: Math.max(0, story.commentCount ?? 0) };
});
