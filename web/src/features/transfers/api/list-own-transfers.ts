import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { transferKeys } from './transfer-keys';

const listOwnEndpoint = endpoint<typeof routes.listOwnTransfers>('GET', '/api/i/transfer/transfers/for_owner');

/** A page of the caller's transfers, newest first, drafts and expired ones included. */
export function listOwnTransfers(cursor: string | undefined, signal?: AbortSignal) {
  return listOwnEndpoint({ query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

export function ownTransfersQueryOptions(userId: string) {
  return infiniteQueryOptions({
    queryKey: transferKeys.own(userId),
    queryFn: ({ pageParam, signal }) => listOwnTransfers(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.cursor ?? undefined,
  });
}

export function useOwnTransfers(userId: string | null, enabled = true) {
  return useInfiniteQuery({ ...ownTransfersQueryOptions(userId ?? ''), enabled: enabled && Boolean(userId) });
}
