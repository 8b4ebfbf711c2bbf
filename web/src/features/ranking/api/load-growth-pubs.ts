import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import type { BoardFilter } from '../lib/paths';
import { boardQueryKey, toBoardQuery } from './board-query';
import { nextBoardOffset } from './load-pubs';

const loadGrowthPubs = endpoint<typeof routes.loadGrowthPubs>('GET', '/api/i/toppubs/load/growthPubs');

/** One page of the fastest-growing board, starting at offset `from`. */
export function getGrowthPubsPage(filter: BoardFilter, from: number, signal?: AbortSignal) {
  return loadGrowthPubs({ query: toBoardQuery(filter, from), ...(signal ? { signal } : {}) });
}

export function growthPubsPagesQueryOptions(filter: BoardFilter) {
  return infiniteQueryOptions({
    queryKey: boardQueryKey('loadGrowthPubs', toBoardQuery(filter)),
    queryFn: ({ pageParam, signal }) => getGrowthPubsPage(filter, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: nextBoardOffset,
  });
}

export function useGrowthPubsPages(filter: BoardFilter) {
  return useInfiniteQuery(growthPubsPagesQueryOptions(filter));
}
