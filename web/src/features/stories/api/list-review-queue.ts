import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storyKeys } from './story-keys';

const reviewQueueEndpoint = endpoint<typeof routes.listReviewQueue>('GET', '/api/i/stories/review/queue');

export function listReviewQueue(cursor: string | undefined, signal?: AbortSignal) {
  return reviewQueueEndpoint({ query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

/** The stories waiting for the editors, oldest submission first, a page at a time. */
export function reviewQueueQueryOptions() {
  return infiniteQueryOptions({
    queryKey: storyKeys.reviewQueue,
    queryFn: ({ pageParam, signal }) => listReviewQueue(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export function useReviewQueue(enabled: boolean) {
  return useInfiniteQuery({ ...reviewQueueQueryOptions(), enabled });
}
