import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { announceNotification } from '../lib/announce-notification';
import { requireStory, setLike, storyFor } from './lib/story-relations';
import { notifiedStory } from './lib/story-view';

export const handler = createHandler(storyRoutes.likeStory, async ({ params, caller }) => {
  const db = getDb();
  const story = await requireStory(db, params.id);
  const notification = await setLike(db, story, caller.userId, params.status, new Date());
  await announceNotification(db, notification, {
    kind: 'story-liked',
    actorId: caller.userId,
    object: notifiedStory(story),
  });
  // Read again: the answer is the state the server holds, which the web app shows.
  return { story: await storyFor(db, await requireStory(db, story.storyId), caller) };
});
