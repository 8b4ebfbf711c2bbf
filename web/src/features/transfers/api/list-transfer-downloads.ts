import { useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { transferKeys } from './transfer-keys';

const listDownloadsEndpoint = endpoint<typeof routes.listTransferDownloads>(
  'GET',
  '/api/i/transfer/transfer/{id}/v/owner/downloads',
);

/** A page of the sender's download log, newest first (`cursor` from the page before). */
export function listTransferDownloads(id: string, cursor: string | undefined, signal?: AbortSignal) {
  return listDownloadsEndpoint({ params: { id }, query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

export function useTransferDownloads(id: string) {
  return useInfiniteQuery({
    queryKey: transferKeys.downloads(id),
    queryFn: ({ pageParam, signal }) => listTransferDownloads(id, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.cursor ?? undefined,
  });
}
