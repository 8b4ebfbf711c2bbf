import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type CurrentUser, currentUserQueryKey, useCurrentUser } from './current-user';

/**
 * The bell's counts, live: while someone is signed in, the server's pushes set them in the
 * current user (what the bell reads), and a reconnect reads the user again. The WebSocket
 * client is downloaded only once someone is signed in: visitors, most of the site's traffic,
 * never need it.
 */
export function useLiveUnseenCounts(): void {
  const queryClient = useQueryClient();
  const { user } = useCurrentUser();
  const userId = user?.userId;
  useEffect(() => {
    if (!userId || typeof WebSocket === 'undefined') return undefined;
    let stop: (() => void) | undefined;
    let ended = false;
    import('./live-updates').then(
      ({ startLiveUpdates }) => {
        if (ended) return;
        stop = startLiveUpdates({
          onCounts: (counts) =>
            queryClient.setQueryData<CurrentUser | null>(currentUserQueryKey, (current) =>
              current && current.userId === userId
                ? {
                    ...current,
                    numUnseenNotifications: counts.numUnseenNotifications,
                    ssoAppNumUnseenNotifications: counts.ssoAppNumUnseenNotifications,
                  }
                : current,
            ),
          onReconnected: () => void queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
        });
      },
      // The client's code could not be downloaded (a newer version was deployed): the counts
      // still refresh with every read of the current user, only not the moment they change.
      (error: unknown) => console.warn('Live notification counts are unavailable', error),
    );
    return () => {
      ended = true;
      stop?.();
    };
  }, [queryClient, userId]);
}
