import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { notificationKeys } from './notification-keys';

const getNotificationsScreenEndpoint = endpoint<typeof routes.getNotificationsScreen>('GET', '/api/i/penname/notifications');

/** The notifications page's data: the first unseen and seen pages and the counts. */
export function getNotificationsScreen(signal?: AbortSignal) {
  return getNotificationsScreenEndpoint(signal ? { signal } : {});
}

export function notificationsScreenQueryOptions(userId: string) {
  return queryOptions({ queryKey: notificationKeys.screen(userId), queryFn: ({ signal }) => getNotificationsScreen(signal) });
}

export function useNotificationsScreen(userId: string | null | undefined) {
  return useQuery({ ...notificationsScreenQueryOptions(userId ?? ''), enabled: Boolean(userId) });
}
