import * as notificationRoutes from '../../shared/routes/notifications';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';
import { readUnseenCounts } from '../lib/notifications';

export const handler = createHandler(notificationRoutes.countUnseenNotifications, async ({ caller }) =>
  readUnseenCounts(getDb(), caller.userId),
);
