import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { transferKeys } from './transfer-keys';

const getTransferEndpoint = endpoint<typeof routes.getTransfer>('GET', '/api/i/transfer/transfer/{id}/v');

/** The sender's view of their transfer: files with votes, recipients with their downloads, the plan's limits. */
export function getTransfer(id: string, signal?: AbortSignal) {
  return getTransferEndpoint({ params: { id }, ...(signal ? { signal } : {}) });
}

export function transferQueryOptions(id: string) {
  return queryOptions({ queryKey: transferKeys.view(id), queryFn: ({ signal }) => getTransfer(id, signal) });
}

export function useTransfer(id: string, enabled = true) {
  return useQuery({ ...transferQueryOptions(id), enabled });
}
