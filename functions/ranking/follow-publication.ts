import * as rankingRoutes from '../../shared/routes/ranking';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { claimLimits, describeWait } from '../lib/rate-limit';
import { setPublicationFollow } from './lib/publication-follows';

/** Follows and unfollows one person may make in an hour: far above a person, far below a bot. */
export const PUBLICATION_FOLLOW_CHANGES_PER_HOUR = 200;

export const handler = createHandler(rankingRoutes.followPublication, async ({ params, caller }) => {
  const db = getDb();
  await claimLimits(db, [
    {
      kind: 'window',
      key: `follow-publication:${caller.userId}`,
      limit: PUBLICATION_FOLLOW_CHANGES_PER_HOUR,
      windowSeconds: 3_600,
      message: (wait) => `You have followed and unfollowed a lot of publications this hour. Try again in ${describeWait(wait)}.`,
    },
  ]);
  return setPublicationFollow(db, { userId: caller.userId, slug: params.slug, status: params.status, now: new Date() });
});
