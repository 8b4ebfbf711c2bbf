import { useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { fileRequestKeys } from './file-request-keys';

const showFileRequestEndpoint = endpoint<typeof routes.showFileRequest>('GET', '/api/i/transfer/request/{id}/v');

/** A request as anyone with its link sees it (404 unknown, 410 closed, expired or full). */
export function showFileRequest(id: string, signal?: AbortSignal) {
  return showFileRequestEndpoint({ params: { id }, ...(signal ? { signal } : {}) });
}

export function usePublicFileRequest(id: string) {
  return useQuery({
    queryKey: fileRequestKeys.public(id),
    queryFn: ({ signal }) => showFileRequest(id, signal),
    retry: false,
  });
}
