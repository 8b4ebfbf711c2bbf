import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import type { BoardFilter } from '../lib/paths';
import { boardQueryKey, toBoardQuery } from './board-query';
import { nextBoardOffset } from './load-pubs';

const loadActivityPubs = endpoint<typeof routes.loadActivityPubs>('GET', '/api/i/toppubs/load/activityPubs');

/** One page of the recently-active board (newest post first), starting at offset `from`. */
export function getActivityPubsPage(filter: BoardFilter, from: number, signal?: AbortSignal) {
  return loadActivityPubs({ query: toBoardQuery(filter, from), ...(signal ? { signal } : {}) });
}

export function activityPubsPagesQueryOptions(filter: BoardFilter) {
  return infiniteQueryOptions({
    queryKey: boardQueryKey('loadActivityPubs', toBoardQuery(filter)),
    queryFn: ({ pageParam, signal }) => getActivityPubsPage(filter, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: nextBoardOffset,
  });
}

export function useActivityPubsPages(filter: BoardFilter) {
  return useInfiniteQuery(activityPubsPagesQueryOptions(filter));
}
