import {
  markSeenBodySchema,
  markSeenResultSchema,
  notificationListQuerySchema,
  notificationPageSchema,
  notificationsScreenSchema,
  unseenCountsSchema,
} from '../schemas/notifications';
import { defineRoute } from './define-route';

export const getNotificationsScreen = defineRoute({
  method: 'GET',
  path: '/api/i/penname/notifications',
  access: 'user',
  handler: 'notifications/get-notifications-screen',
  summary:
    "The notifications page: the first page of the caller's unseen and of their seen notifications, newest first, and the unseen counts.",
  response: notificationsScreenSchema,
});

export const listUnseenNotifications = defineRoute({
  method: 'GET',
  path: '/api/i/penname/notifications/unseen',
  access: 'user',
  handler: 'notifications/list-unseen-notifications',
  summary: "A page of the caller's unseen notifications, newest first; `cursor` is the previous page's nextCursor.",
  query: notificationListQuerySchema,
  response: notificationPageSchema,
});

export const listSeenNotifications = defineRoute({
  method: 'GET',
  path: '/api/i/penname/notifications/seen',
  access: 'user',
  handler: 'notifications/list-seen-notifications',
  summary:
    "A page of the caller's seen notifications of the last 90 days, newest first; `cursor` is the previous page's nextCursor.",
  query: notificationListQuerySchema,
  response: notificationPageSchema,
});

export const countUnseenNotifications = defineRoute({
  method: 'GET',
  path: '/api/i/penname/notifications/count/unseen',
  access: 'user',
  handler: 'notifications/count-unseen-notifications',
  summary: "The caller's unseen counts: the platform's, the sibling apps' and their total (one read).",
  response: unseenCountsSchema,
});

export const markNotificationsSeen = defineRoute({
  method: 'PUT',
  path: '/api/i/penname/notifications/batch/markSeen',
  access: 'user',
  handler: 'notifications/mark-notifications-seen',
  summary:
    "Marks the caller's notifications among `ids` (at most 100) seen and answers how many changed and the new counts. Ids that are not the caller's unseen notifications are ignored. The caller's other open tabs get the new counts.",
  body: markSeenBodySchema,
  response: markSeenResultSchema,
  // The caller's other tabs and devices are told the new counts.
  capabilities: { realtime: true },
});

/** The group in listing order: a new route goes at the end, so no existing route moves to another stack. */
export const allNotificationRoutes = {
  getNotificationsScreen,
  listUnseenNotifications,
  listSeenNotifications,
  countUnseenNotifications,
  markNotificationsSeen,
};
