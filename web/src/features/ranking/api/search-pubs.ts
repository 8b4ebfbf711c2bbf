import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '../../../../../shared/routes';

const searchPubs = endpoint<typeof routes.searchPubs>('GET', '/api/i/toppubs/search');

export const SEARCH_LIMIT = 50;

/** Publications whose name or slug matches `q`, most followed first. */
export function searchPublications(q: string, signal?: AbortSignal) {
  return searchPubs({ query: { q, limit: SEARCH_LIMIT }, ...(signal ? { signal } : {}) });
}

export function searchQueryOptions(q: string) {
  const query = q.trim();
  return queryOptions({
    queryKey: ['ranking', 'searchPubs', { q: query, limit: SEARCH_LIMIT }] as const,
    queryFn: ({ signal }) => searchPublications(query, signal),
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
  });
}

export function useSearchPublications(q: string) {
  return useQuery(searchQueryOptions(q));
}
