import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { deleteComment, toComment } from './lib/comments';

export const handler = createHandler(storyRoutes.deleteStoryComment, async ({ params, caller }) => {
  const now = new Date();
  const { comment, commentCount } = await deleteComment(getDb(), {
    storyId: params.id,
    commentId: params.commentId,
    userId: caller.userId,
    now,
  });
  return { comment: comment ? toComment(comment, null, caller, now) : null, commentCount };
});
