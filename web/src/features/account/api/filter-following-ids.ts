import { useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { accountKeys } from './account-keys';

const filterFollowingIdsEndpoint = endpoint<typeof routes.filterFollowingIds>('GET', '/api/i/stories/following/ids');

/** Whether the signed-in user follows `userId` (the following-ids filter, asked for one id). */
export async function isFollowing(userId: string, signal?: AbortSignal): Promise<boolean> {
  const { ids } = await filterFollowingIdsEndpoint({
    query: { userIds: JSON.stringify([userId]) },
    ...(signal ? { signal } : {}),
  });
  return ids.includes(userId.toLowerCase());
}

/** Idle while nobody is signed in: a visitor follows nobody. */
export function useIsFollowing(userId: string, signedIn: boolean) {
  return useQuery({
    queryKey: accountKeys.following(userId),
    queryFn: ({ signal }) => isFollowing(userId, signal),
    enabled: signedIn,
  });
}
