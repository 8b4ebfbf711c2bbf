import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import type { BoardFilter } from '../lib/paths';
import { boardQueryKey, toBoardQuery } from './board-query';

const showGrowth = endpoint<typeof routes.showGrowth>('GET', '/api/i/toppubs/show/growth');

/** Screen data for /growing, /growing/active and /topic/{tag}/growing: SEO, topic, popular topics and the first page. */
export function getGrowthScreen(filter: BoardFilter, signal?: AbortSignal) {
  return showGrowth({ query: toBoardQuery(filter), ...(signal ? { signal } : {}) });
}

export function growthScreenQueryOptions(filter: BoardFilter) {
  const query = toBoardQuery(filter);
  return queryOptions({
    queryKey: boardQueryKey('showGrowth', query),
    queryFn: ({ signal }) => getGrowthScreen(filter, signal),
  });
}

export function useGrowthScreen(filter: BoardFilter) {
  return useQuery(growthScreenQueryOptions(filter));
}
