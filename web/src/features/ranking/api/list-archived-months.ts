import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const listArchivedMonths = endpoint<typeof routes.listArchivedMonths>('GET', '/api/i/toppubs/archive');

/** Every archived month, newest first. */
export function getArchivedMonths(signal?: AbortSignal) {
  return listArchivedMonths({ ...(signal ? { signal } : {}) });
}

export function archivedMonthsQueryOptions() {
  return queryOptions({
    queryKey: ['ranking', 'listArchivedMonths'] as const,
    queryFn: ({ signal }) => getArchivedMonths(signal),
  });
}

export function useArchivedMonths() {
  return useQuery(archivedMonthsQueryOptions());
}
