import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { removeComment, toComment } from './lib/comments';

export const handler = createHandler(storyRoutes.removeStoryComment, async ({ params, caller }) => {
  const now = new Date();
  const { comment, commentCount } = await removeComment(getDb(), {
    storyId: params.id,
    commentId: params.commentId,
    superuserId: caller.userId,
    now,
  });
  return { comment: toComment(comment, null, caller, now), commentCount };
});
