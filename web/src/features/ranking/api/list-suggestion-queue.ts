import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { suggestionKeys } from './suggestion-keys';

const queueEndpoint = endpoint<typeof routes.listSuggestionQueue>('GET', '/api/i/toppubs/suggestions/queue');

export function listSuggestionQueue(cursor: string | undefined, signal?: AbortSignal) {
  return queueEndpoint({ query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

/** The suggestions waiting for a superuser, oldest first, a page at a time. */
export function suggestionQueueQueryOptions() {
  return infiniteQueryOptions({
    queryKey: suggestionKeys.queue,
    queryFn: ({ pageParam, signal }) => listSuggestionQueue(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export function useSuggestionQueue(enabled: boolean) {
  return useInfiniteQuery({ ...suggestionQueueQueryOptions(), enabled });
}
