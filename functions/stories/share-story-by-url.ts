import * as storyRoutes from '../../shared/routes/stories';
import { hostsOf } from '../../shared/stories/sharing-rules';
import { getConfig } from '../lib/config';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { reply } from '../lib/http/responses';
import { claimLimits, describeWait } from '../lib/rate-limit';
import { requireShareableUrl } from './lib/share-url';
import { fanOutStory } from './lib/feeds';
import { shareStory } from './lib/share-story';
import { storyFor } from './lib/story-relations';

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
  // A new story reaches the feeds of the sharer's followers before the sharer sees it shared.
  if (!duplicate) await fanOutStory(db, story);
  // A duplicate is someone's earlier story, which the caller may have opened or liked already.
  const view = await storyFor(db, story, caller);
  return reply({ story: view, duplicate }, { status: duplicate ? 200 : 201 });
});
