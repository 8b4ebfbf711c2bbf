import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { accountKeys } from './account-keys';

const openReportsEndpoint = endpoint<typeof routes.listOpenReports>('GET', '/api/i/user/moderation/reports');

export function listOpenReports(cursor: string | undefined, signal?: AbortSignal) {
  return openReportsEndpoint({ query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

/** Every object's open reports, newest first, a page at a time (superusers only). */
export function openReportsQueryOptions() {
  return infiniteQueryOptions({
    queryKey: accountKeys.openReports,
    queryFn: ({ pageParam, signal }) => listOpenReports(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export function useOpenReports(enabled: boolean) {
  return useInfiniteQuery({ ...openReportsQueryOptions(), enabled });
}
