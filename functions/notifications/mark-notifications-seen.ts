import * as notificationRoutes from '../../shared/routes/notifications';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { markSeen, readUnseenCounts } from '../lib/notifications';
import { pushToUser } from '../lib/realtime';

export const handler = createHandler(notificationRoutes.markNotificationsSeen, async ({ caller, body }) => {
  const db = getDb();
  const marked = await markSeen(db, { userId: caller.userId, ids: body.ids, now: new Date() });
  const counts = await readUnseenCounts(db, caller.userId);
  // The bell in the caller's other tabs goes quiet too.
  if (marked > 0) await pushToUser(db, caller.userId, { type: 'unseen-counts', counts });
  return { marked, counts };
});
