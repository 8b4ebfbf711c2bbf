export type { Notification, NotificationPage, UnseenCounts } from '@shared/schemas/notifications';

/** Query keys of the notifications feature: everything under ['notifications'] belongs to the signed-in user. */
export const notificationKeys = {
  all: ['notifications'] as const,
  screen: (userId: string) => ['notifications', 'screen', userId] as const,
  older: (userId: string, state: 'unseen' | 'seen', from: string) => ['notifications', 'older', userId, state, from] as const,
};
