import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { suggestionKeys } from './suggestion-keys';

const mineEndpoint = endpoint<typeof routes.listMySuggestions>('GET', '/api/i/toppubs/suggestions/mine');

export function listMySuggestions(cursor: string | undefined, signal?: AbortSignal) {
  return mineEndpoint({ query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

/** The caller's suggestions, newest first, a page at a time. */
export function mySuggestionsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: suggestionKeys.mine,
    queryFn: ({ pageParam, signal }) => listMySuggestions(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export function useMySuggestions(enabled: boolean) {
  return useInfiniteQuery({ ...mySuggestionsQueryOptions(), enabled });
}
