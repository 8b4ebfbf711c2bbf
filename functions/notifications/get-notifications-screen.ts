import * as notificationRoutes from '../../shared/routes/notifications';
import { NOTIFICATIONS_PAGE_SIZE } from '../../shared/schemas/notifications';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { listNotifications, readUnseenCounts } from '../lib/notifications';

export const handler = createHandler(notificationRoutes.getNotificationsScreen, async ({ caller }) => {
  const db = getDb();
  const now = new Date();
  const page = { userId: caller.userId, limit: NOTIFICATIONS_PAGE_SIZE, now };
  const [unseen, seen, counts] = await Promise.all([
    listNotifications(db, { ...page, state: 'unseen' }),
    listNotifications(db, { ...page, state: 'seen' }),
    readUnseenCounts(db, caller.userId),
  ]);
  return { unseen, seen, counts };
});
