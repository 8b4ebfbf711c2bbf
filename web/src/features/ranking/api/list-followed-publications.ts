import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import type { routes } from '@shared/routes';

const listFollowed = endpoint<typeof routes.listFollowedPublications>('GET', '/api/i/toppubs/me/following');

export const followedPublicationsKey = (userId: string) => ['ranking', 'followedPublications', userId] as const;

/** The signed-in person's followed publications, newest follow first. */
export function getFollowedPublications(signal?: AbortSignal) {
  return listFollowed(signal ? { signal } : {});
}

export function followedPublicationsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: followedPublicationsKey(userId),
    queryFn: ({ signal }) => getFollowedPublications(signal),
    staleTime: 60_000,
  });
}

/** Nothing is asked for a visitor: they follow nothing, and the call would answer 401. */
export function useFollowedPublications() {
  const { user } = useCurrentUser();
  return useQuery({ ...followedPublicationsQueryOptions(user?.userId ?? ''), enabled: user !== null });
}
