import { queryOptions, useQuery } from '@tanstack/react-query';
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
