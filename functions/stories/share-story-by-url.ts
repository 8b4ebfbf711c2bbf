import * as storyRoutes from '../../shared/routes/stories';
import { hostsOf } from '../../shared/stories/sharing-rules';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { getUser } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { claimLimits, describeWait } from '../lib/rate-limit';
import { requireShareableUrl } from './lib/share-url';
import { shareStory } from './lib/share-story';
import { toStory } from './lib/story-view';

/** Stories one person may share in an hour: plenty for a reader, too few for a spam run. */
export const SHARES_PER_HOUR = 30;

const config = getConfig();

export const handler = createHandler(storyRoutes.shareStoryByUrl, async ({ body, caller }) => {
  const url = requireShareableUrl(body.url);
  const db = getDb();
  await claimLimits(db, [
    {
      kind: 'window',
      key: `share-story:${caller.userId}`,
      limit: SHARES_PER_HOUR,
      windowSeconds: 3_600,
      message: (wait) => `You have shared ${SHARES_PER_HOUR} stories this hour. Try again in ${describeWait(wait)}.`,
    },
  ]);
  const { story, duplicate } = await shareStory(db, caller.userId, url, {
    ownHosts: hostsOf(config.allowedOrigins),
    allowPrivateAddresses: config.fetchPrivateAddresses,
  });
  const sharer = await getUser(db, { userId: story.sharerId });
  // The sharer has, in effect, opened their own link; nobody else has yet (a duplicate is someone's earlier story).
  const view = toStory(story, sharer, {
    viewerId: caller.userId,
    didRedirect: story.sharerId === caller.userId,
    didUpvote: false,
  });
  return reply({ story: view, duplicate }, { status: duplicate ? 200 : 201 });
});
