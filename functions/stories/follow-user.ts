import * as storyRoutes from '../../shared/routes/stories';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { announceNotification } from '../lib/announce-notification';
import { claimLimits, describeWait } from '../lib/rate-limit';
import { backfillTimeline, pruneTimeline } from './lib/feeds';
import { followState, setFollow } from './lib/follows';

/** Follows and unfollows one person may make in an hour: far above a person, far below a bot. */
export const FOLLOW_CHANGES_PER_HOUR = 200;

export const handler = createHandler(storyRoutes.followUser, async ({ params, caller }) => {
  const db = getDb();
  await claimLimits(db, [
    {
      kind: 'window',
      key: `follow:${caller.userId}`,
      limit: FOLLOW_CHANGES_PER_HOUR,
      windowSeconds: 3_600,
      message: (wait) => `You have followed and unfollowed a lot this hour. Try again in ${describeWait(wait)}.`,
    },
  ]);
  const now = new Date();
  const notification = await setFollow(db, caller.userId, params.userId, params.status, now);
  await announceNotification(db, notification, {
    kind: 'user-followed',
    actorId: caller.userId,
    object: { type: 'user', id: params.userId },
  });
  // The following feed: both are idempotent, so a repeated call changes nothing.
  const follow = { followerId: caller.userId, followedId: params.userId };
  if (params.status === 'on') await backfillTimeline(db, { ...follow, now });
  else await pruneTimeline(db, follow);
  return followState(db, caller.userId, params.userId);
});
