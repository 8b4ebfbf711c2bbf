import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import type { BoardPage } from '@shared/schemas/ranking';
import type { BoardFilter } from '../lib/paths';
import { boardQueryKey, toBoardQuery } from './board-query';

const loadPubs = endpoint<typeof routes.loadPubs>('GET', '/api/i/toppubs/load/pubs');

/** One page of the most-followed board, starting at offset `from`. */
export function getPubsPage(filter: BoardFilter, from: number, signal?: AbortSignal) {
  return loadPubs({ query: toBoardQuery(filter, from), ...(signal ? { signal } : {}) });
}

/** The offset of the page after `last`, or undefined at the end of the board. */
export function nextBoardOffset(last: BoardPage): number | undefined {
  return last.pageInfo.hasMore ? last.pageInfo.from + last.pageInfo.limit : undefined;
}

export function pubsPagesQueryOptions(filter: BoardFilter) {
  return infiniteQueryOptions({
    queryKey: boardQueryKey('loadPubs', toBoardQuery(filter)),
    queryFn: ({ pageParam, signal }) => getPubsPage(filter, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: nextBoardOffset,
  });
}

export function usePubsPages(filter: BoardFilter) {
  return useInfiniteQuery(pubsPagesQueryOptions(filter));
}
