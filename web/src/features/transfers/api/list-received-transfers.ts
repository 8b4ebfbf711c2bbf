import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { transferKeys } from './transfer-keys';

const listReceivedEndpoint = endpoint<typeof routes.listReceivedTransfers>('GET', '/api/i/transfer/transfers/for_member');

/** A page of the sent transfers the caller is a recipient of, newest first. */
export function listReceivedTransfers(cursor: string | undefined, signal?: AbortSignal) {
  return listReceivedEndpoint({ query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

export function receivedTransfersQueryOptions(userId: string) {
  return infiniteQueryOptions({
    queryKey: transferKeys.received(userId),
    queryFn: ({ pageParam, signal }) => listReceivedTransfers(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.cursor ?? undefined,
  });
}

export function useReceivedTransfers(userId: string | null, enabled = true) {
  return useInfiniteQuery({ ...receivedTransfersQueryOptions(userId ?? ''), enabled: enabled && Boolean(userId) });
}
