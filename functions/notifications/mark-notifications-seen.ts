import * as notificationRoutes from '../../shared/routes/notifications';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { markSeen, readUnseenCounts } from '../lib/notifications';

export const handler = createHandler(notificationRoutes.markNotificationsSeen, async ({ caller, body }) => {
  const db = getDb();
  const marked = await markSeen(db, { userId: caller.userId, ids: body.ids, now: new Date() });
  return { marked, counts: await readUnseenCounts(db, caller.userId) };
});
