import * as storyRoutes from '../../shared/routes/stories';
import { commentReportId } from '../../shared/stories/comment-rules';
import { getDb } from '../lib/db/service';
import { BadRequest, NotFound } from '../lib/errors';
import { createHandler } from '../lib/http/create-handler';
import { fileReport } from '../lib/reports';
import { readComment } from './lib/comments';

/** A report of a comment that exists, by someone else than its author, filed as the account's report route files any. */
export const handler = createHandler(storyRoutes.reportStoryComment, async ({ params, body, caller }) => {
  const db = getDb();
  const comment = await readComment(db, params.id, params.commentId);
  if (!comment) throw new NotFound(`There is no comment ${params.commentId} on this story.`);
  if (comment.authorId === caller.userId) throw new BadRequest('You cannot report your own comment.');
  const { isNew } = await fileReport(db, {
    objectType: 'comment',
    objectId: commentReportId(params.id, params.commentId),
    reporterId: caller.userId,
    reason: body.reason,
    details: body.details,
  });
  return { reported: true as const, isNew };
});
