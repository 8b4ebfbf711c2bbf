import { useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { fileRequestKeys } from './file-request-keys';

const listFileRequestsEndpoint = endpoint<typeof routes.listFileRequests>('GET', '/api/i/transfer/requests');

/** A page of the caller's file requests (50), newest first, with their upload counts. */
export function listFileRequests(cursor: string | undefined, signal?: AbortSignal) {
  return listFileRequestsEndpoint({ query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

export function useFileRequests(userId: string | null) {
  return useInfiniteQuery({
    queryKey: fileRequestKeys.own(userId ?? ''),
    queryFn: ({ pageParam, signal }) => listFileRequests(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.cursor ?? undefined,
    enabled: Boolean(userId),
  });
}
