import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { announceNotification } from '../lib/announce-notification';
import { requireStory, storyFor } from './lib/story-relations';
import { notifiedStory } from './lib/story-view';
import { decideReview } from './lib/story-review';

export const handler = createHandler(storyRoutes.decideStoryReview, async ({ params, caller }) => {
  const db = getDb();
  const story = await requireStory(db, params.id);
  const notification = await decideReview(db, story, caller.userId, params.decision, new Date());
  await announceNotification(db, notification, {
    kind: 'story-review-accepted',
    actorId: caller.userId,
    object: notifiedStory(story),
  });
  return { story: await storyFor(db, await requireStory(db, params.id), caller) };
});
