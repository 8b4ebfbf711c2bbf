import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const showArchiveMonth = endpoint<typeof routes.showArchiveMonth>('GET', '/api/i/toppubs/archive/{year}/{month}');

/** A closed month's boards, of every publication or of one topic. */
export function getArchiveMonth(month: string, topic: string | null, signal?: AbortSignal) {
  return showArchiveMonth({
    params: { year: month.slice(0, 4), month: month.slice(5, 7) },
    query: topic ? { topic } : {},
    ...(signal ? { signal } : {}),
  });
}

export function archiveMonthQueryOptions(month: string, topic: string | null) {
  return queryOptions({
    queryKey: ['ranking', 'showArchiveMonth', month, topic] as const,
    queryFn: ({ signal }) => getArchiveMonth(month, topic, signal),
    // An archived month never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useArchiveMonth(month: string, topic: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...archiveMonthQueryOptions(month, topic), enabled });
}
