import { useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { notificationKeys } from './notification-keys';

const listSeenEndpoint = endpoint<typeof routes.listSeenNotifications>('GET', '/api/i/penname/notifications/seen');

/** A page of seen notifications after `cursor`. */
export function listSeenNotifications(cursor: string, signal?: AbortSignal) {
  return listSeenEndpoint({ query: { cursor }, ...(signal ? { signal } : {}) });
}

/**
 * Older seen notifications, page after page from `from` (the screen's nextCursor). Idle until
 * the reader asks for more.
 */
export function useOlderSeenNotifications(userId: string, from: string | null) {
  return useInfiniteQuery({
    queryKey: notificationKeys.older(userId, 'seen', from ?? ''),
    queryFn: ({ pageParam, signal }) => listSeenNotifications(pageParam, signal),
    initialPageParam: from ?? '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: false,
  });
}
