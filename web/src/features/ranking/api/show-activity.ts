import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import type { BoardFilter } from '../lib/paths';
import { boardQueryKey, toBoardQuery } from './board-query';

const showActivity = endpoint<typeof routes.showActivity>('GET', '/api/i/toppubs/show/activity');

/** Screen data for /recent, /recent/active and /topic/{tag}/recent: SEO, topic, popular topics and the first page. */
export function getActivityScreen(filter: BoardFilter, signal?: AbortSignal) {
  return showActivity({ query: toBoardQuery(filter), ...(signal ? { signal } : {}) });
}

export function activityScreenQueryOptions(filter: BoardFilter) {
  const query = toBoardQuery(filter);
  return queryOptions({
    queryKey: boardQueryKey('showActivity', query),
    queryFn: ({ signal }) => getActivityScreen(filter, signal),
  });
}

export function useActivityScreen(filter: BoardFilter) {
  return useQuery(activityScreenQueryOptions(filter));
}
