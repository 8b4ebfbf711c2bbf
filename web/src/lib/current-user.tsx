import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, ApiError } from './api-client';
import type { CurrentUser } from '../../../shared/schemas/account';

/** The signed-in user as GET /api/i/user/me/v answers it (currentUserSchema in the route table). */
export type { CurrentUser };

export const CURRENT_USER_PATH = '/api/i/user/me/v';
export const currentUserQueryKey = ['current-user'] as const;

/** Answers that mean "nobody is signed in": the query resolves to null instead of failing. */
const LOGGED_OUT_STATUSES = new Set([401, 403, 404]);

export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  try {
    const body = await api.get<CurrentUser | { currentUser?: CurrentUser | null } | null | ''>(
      CURRENT_USER_PATH,
      signal ? { signal } : {},
    );
    if (!body || typeof body !== 'object') return null;
    if ('currentUser' in body) return body.currentUser ?? null;
    return 'username' in body ? body : null;
  } catch (error) {
    if (error instanceof ApiError && LOGGED_OUT_STATUSES.has(error.status)) return null;
    throw error;
  }
}

export const currentUserQueryOptions = queryOptions({
  queryKey: currentUserQueryKey,
  queryFn: ({ signal }) => fetchCurrentUser(signal),
  retry: false,
  staleTime: 60_000,
});

/**
 * The signed-in user, or null when logged out. `isLoggedIn` is false while the first answer is
 * pending, so the bar shows neither Login nor the avatar until it is known (no flash).
 */
export function useCurrentUser() {
  const query = useQuery(currentUserQueryOptions);
  const user = query.data ?? null;
  return { user, isLoggedIn: user !== null, isPending: query.isPending, error: query.error };
}

/** Seed the cache (tests, or a server-embedded user). */
export function setCurrentUser(queryClient: QueryClient, user: CurrentUser | null): void {
  queryClient.setQueryData(currentUserQueryKey, user);
}

export function unseenNotificationCount(user: CurrentUser | null | undefined): number {
  if (!user) return 0;
  return (user.numUnseenNotifications || 0) + (user.ssoAppNumUnseenNotifications || 0);
}

/** Opening the notifications link resets both unseen counts to zero locally, without waiting for the server. */
export function resetUnseenNotifications(queryClient: QueryClient): void {
  queryClient.setQueryData<CurrentUser | null>(currentUserQueryKey, (user) =>
    user ? { ...user, numUnseenNotifications: 0, ssoAppNumUnseenNotifications: 0 } : user,
  );
}

export function useResetUnseenNotifications(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => resetUnseenNotifications(queryClient), [queryClient]);
}
