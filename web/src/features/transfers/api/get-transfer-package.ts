import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { transferKeys } from './transfer-keys';

const getPackageEndpoint = endpoint<typeof routes.getTransferPackage>('GET', '/api/i/transfer/transfer/{id}/v/package');

/** A sent transfer's package as its recipients see it (404 for anyone else, 410 once expired). */
export function getTransferPackage(id: string, signal?: AbortSignal) {
  return getPackageEndpoint({ params: { id }, ...(signal ? { signal } : {}) });
}

export function transferPackageQueryOptions(id: string) {
  return queryOptions({ queryKey: transferKeys.package(id), queryFn: ({ signal }) => getTransferPackage(id, signal) });
}

export function useTransferPackage(id: string, enabled = true) {
  return useQuery({ ...transferPackageQueryOptions(id), enabled });
}

/**
 * After a download was asked for: a counted one moved the package's "downloads left", and a
 * refused one (410: the limit is spent, or the transfer expired) means the page is out of date.
 */
export function useRefreshAfterDownload(id: string) {
  const queryClient = useQueryClient();
  return (error?: unknown) => {
    if (error !== undefined && !(error instanceof ApiError && error.status === 410)) return;
    void queryClient.invalidateQueries({ queryKey: transferKeys.package(id) });
  };
}
