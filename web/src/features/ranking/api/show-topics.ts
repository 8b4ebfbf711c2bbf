import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const showTopics = endpoint<typeof routes.showTopics>('GET', '/api/i/toppubs/show/topics');

/** Topics per page of /topics. */
export const TOPICS_PAGE_SIZE = 24;

/** Screen data for /topics and /topics/{page}. */
export function getTopicsScreen(page: number, signal?: AbortSignal) {
  return showTopics({ query: { page, limit: TOPICS_PAGE_SIZE }, ...(signal ? { signal } : {}) });
}

export function topicsScreenQueryOptions(page: number) {
  return queryOptions({
    queryKey: ['ranking', 'showTopics', { page, limit: TOPICS_PAGE_SIZE }] as const,
    queryFn: ({ signal }) => getTopicsScreen(page, signal),
    placeholderData: keepPreviousData,
  });
}

export function useTopicsScreen(page: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...topicsScreenQueryOptions(page), enabled });
}
