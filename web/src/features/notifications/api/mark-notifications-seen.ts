import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import { type CurrentUser, currentUserQueryKey } from '../../../lib/current-user';
import type { routes } from '@shared/routes';
import { notificationKeys } from './notification-keys';

const markSeenEndpoint = endpoint<typeof routes.markNotificationsSeen>('PUT', '/api/i/penname/notifications/batch/markSeen');

/** Marks the caller's notifications among `ids` seen. */
export function markNotificationsSeen(ids: readonly string[]) {
  return markSeenEndpoint({ body: { ids: [...ids] } });
}

/** Marks seen; the bell takes the server's counts and the lists are read again. */
export function useMarkNotificationsSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['notifications', 'markSeen'],
    mutationFn: markNotificationsSeen,
    onSuccess: async ({ counts }) => {
      queryClient.setQueryData<CurrentUser | null>(currentUserQueryKey, (user) =>
        user
          ? {
              ...user,
              numUnseenNotifications: counts.numUnseenNotifications,
              ssoAppNumUnseenNotifications: counts.ssoAppNumUnseenNotifications,
            }
          : user,
      );
      await queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    },
  });
}
