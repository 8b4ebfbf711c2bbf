import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { SIGNED_IN_HINT_COOKIE } from '@shared/constants';
import { api, ApiError } from './api-client';
import type { CurrentUser } from '@shared/schemas/account';

/** The signed-in user as GET /api/i/user/me/v answers it (currentUserSchema in the route table). */
export type { CurrentUser };

export const CURRENT_USER_PATH = '/api/i/user/me/v';
export const currentUserQueryKey = ['current-user'] as const;

/** Answers that mean "nobody is signed in": the query resolves to null instead of failing. */
const LOGGED_OUT_STATUSES = new Set([401, 403, 404]);

const hasSignedInHint = () => document.cookie.split(';').some((cookie) => cookie.trim().startsWith(`${SIGNED_IN_HINT_COOKIE}=`));

/**
 * Whether someone may be signed in on this page: the login's hint cookie, set beside the session
 * cookie (which is HttpOnly, so the page cannot see it). Without the hint the page knows it has a
 * visitor and asks nobody: no request that could only answer 401.
 */
export function mayBeSignedIn(): boolean {
  return hasSignedInHint();
}

/**
 * The session behind the hint ended (it expired, or was ended elsewhere): the hint goes too, on
 * this host and on each parent domain it may have been set for (the sibling apps' shared one).
 */
function forgetSignedInHint(): void {
  const labels = window.location.hostname.split('.');
  const domains = labels.slice(0, -1).map((_label, index) => labels.slice(index).join('.'));
  document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Path=/; Max-Age=0`;
  for (const domain of domains) document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Path=/; Max-Age=0; Domain=${domain}`;
}

export async function fetchCurrentUser(signal?: AbortSignal): Promise<CurrentUser | null> {
  if (!mayBeSignedIn()) return null;
  try {
    const body = await api.get<CurrentUser | { currentUser?: CurrentUser | null } | null | ''>(
      CURRENT_USER_PATH,
      signal ? { signal } : {},
    );
    if (!body || typeof body !== 'object') return null;
    if ('currentUser' in body) return body.currentUser ?? null;
    return 'username' in body ? body : null;
  } catch (error) {
    if (error instanceof ApiError && LOGGED_OUT_STATUSES.has(error.status)) {
      forgetSignedInHint();
      return null;
    }
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
