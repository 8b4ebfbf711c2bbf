import * as storyRoutes from '../../shared/routes/stories';
import { announceNotification } from '../lib/announce-notification';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { getUser } from '../lib/db/users';
import { postComment, toComment } from './lib/comments';
import { requireStory } from './lib/story-relations';

export const handler = createHandler(storyRoutes.addStoryComment, async ({ params, body, caller }) => {
  const db = getDb();
  const story = await requireStory(db, params.id);
  const now = new Date();
  const posted = await postComment(db, { story, authorId: caller.userId, body: body.body, parentId: body.parentId, now });
  // Once committed: the bells of the people told, and their mail.
  await Promise.all(posted.notifications.map(({ writes, event }) => announceNotification(db, writes, event)));
  const author = await getUser(db, { userId: caller.userId });
  return reply({ comment: toComment(posted.comment, author, caller, now), commentCount: posted.commentCount }, { status: 201 });
});
