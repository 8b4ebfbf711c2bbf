import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import type { BoardFilter } from '../lib/paths';
import { boardQueryKey, toBoardQuery } from './board-query';

const showHome = endpoint<typeof routes.showHome>('GET', '/api/i/toppubs/show/home');

/** Screen data for /, /active and /topic/{tag}: SEO, topic, popular topics and the first page. */
export function getHomeScreen(filter: BoardFilter, signal?: AbortSignal) {
  return showHome({ query: toBoardQuery(filter), ...(signal ? { signal } : {}) });
}

export function homeScreenQueryOptions(filter: BoardFilter) {
  const query = toBoardQuery(filter);
  return queryOptions({
    queryKey: boardQueryKey('showHome', query),
    queryFn: ({ signal }) => getHomeScreen(filter, signal),
  });
}

export function useHomeScreen(filter: BoardFilter) {
  return useQuery(homeScreenQueryOptions(filter));
}
