import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storyKeys } from './story-keys';

const userStoriesEndpoint = endpoint<typeof routes.readUserFeed>('GET', '/api/i/stories/user/{userId}/stories');

export function readUserStories(userId: string, cursor: string | undefined, signal?: AbortSignal) {
  return userStoriesEndpoint({ params: { userId }, query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

/** Under the feeds' key, so a like on the profile shows in the feeds too (and the other way round). */
export function userStoriesQueryOptions(userId: string, viewerId: string | null) {
  return infiniteQueryOptions({
    queryKey: storyKeys.userFeed(userId, viewerId ?? 'visitor'),
    queryFn: ({ pageParam, signal }) => readUserStories(userId, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export function useUserStories(userId: string, viewerId: string | null, enabled = true) {
  return useInfiniteQuery({ ...userStoriesQueryOptions(userId, viewerId), enabled });
}
