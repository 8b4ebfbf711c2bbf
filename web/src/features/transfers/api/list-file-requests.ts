import { useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { fileRequestKeys } from './file-request-keys';

const listFileRequestsEndpoint = endpoint<typeof routes.listFileRequests>('GET', '/api/i/transfer/requests');

/** The caller's file requests, newest first, with their upload counts. */
export function listFileRequests(signal?: AbortSignal) {
  return listFileRequestsEndpoint(signal ? { signal } : {});
}

export function useFileRequests(userId: string | null) {
  return useQuery({
    queryKey: fileRequestKeys.own(userId ?? ''),
    queryFn: ({ signal }) => listFileRequests(signal),
    enabled: Boolean(userId),
  });
}
