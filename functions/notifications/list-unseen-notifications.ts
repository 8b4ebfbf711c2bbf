import * as notificationRoutes from '../../shared/routes/notifications';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { listNotifications } from '../lib/notifications';

export const handler = createHandler(notificationRoutes.listUnseenNotifications, async ({ caller, query }) =>
  listNotifications(getDb(), {
    userId: caller.userId,
    state: 'unseen',
    limit: query.limit,
    cursor: query.cursor,
    now: new Date(),
  }),
);
