import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const searchPubs = endpoint<typeof routes.searchPubs>('GET', '/api/i/toppubs/search');

export const SEARCH_LIMIT = 50;

/** What a search asks for: the words, the page, and the filters. */
export interface SearchInput {
  q: string;
  page: number;
  activeOnly: boolean;
  /** A topic tag, or null for every topic. */
  topic: string | null;
}

function toQuery({ q, page, activeOnly, topic }: SearchInput) {
  return {
    q: q.trim(),
    limit: SEARCH_LIMIT,
    ...(page > 1 ? { page } : {}),
    ...(activeOnly ? { active: 'true' as const } : {}),
    ...(topic ? { topic } : {}),
  };
}

/** Publications whose name or slug matches `q`, most followed first, a page at a time. */
export function searchPublications(input: SearchInput, signal?: AbortSignal) {
  return searchPubs({ query: toQuery(input), ...(signal ? { signal } : {}) });
}

export function searchQueryOptions(input: SearchInput) {
  const query = toQuery(input);
  return queryOptions({
    queryKey: ['ranking', 'searchPubs', query] as const,
    queryFn: ({ signal }) => searchPublications(input, signal),
    enabled: query.q.length > 0,
    placeholderData: keepPreviousData,
  });
}

export function useSearchPublications(input: SearchInput) {
  return useQuery(searchQueryOptions(input));
}

/** How many publications the top bar suggests while a name is typed. */
export const SUGGESTION_LIMIT = 6;

/**
 * The top bar's suggestions for `q`: the first few matches, most followed first, with the total
 * so the list can offer every result. Kept apart from the search page's pages by its own key.
 */
export function suggestionQueryOptions(q: string) {
  const query = { q: q.trim(), limit: SUGGESTION_LIMIT };
  return queryOptions({
    queryKey: ['ranking', 'searchPubs', 'suggestions', query] as const,
    queryFn: ({ signal }) => searchPubs({ query, signal }),
    enabled: query.q.length > 0,
    placeholderData: keepPreviousData,
  });
}

export function usePublicationSuggestions(q: string) {
  return useQuery(suggestionQueryOptions(q));
}
