import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { announceNotification } from '../lib/announce-notification';
import { requireStory, storyFor } from './lib/story-relations';
import { notifiedStory } from './lib/story-view';
import { setAuthorClaim } from './lib/story-review';

export const handler = createHandler(storyRoutes.claimStoryAuthor, async ({ params, caller }) => {
  const db = getDb();
  const notification = await setAuthorClaim(db, params.id, caller.userId, params.status, new Date());
  const story = await requireStory(db, params.id);
  await announceNotification(db, notification, {
    kind: 'story-author-claimed',
    actorId: caller.userId,
    object: notifiedStory(story),
  });
  return { story: await storyFor(db, story, caller) };
});
