import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { transferKeys } from './transfer-keys';

const getTransferHomeEndpoint = endpoint<typeof routes.showTransferHome>('GET', '/api/i/ourTransfers/show/home');

/** The transfer home's data: the limits of the caller's plan now (Pro as soon as they subscribe), and their latest transfers. */
export function getTransferHome(signal?: AbortSignal) {
  return getTransferHomeEndpoint(signal ? { signal } : {});
}

export function transferHomeQueryOptions(userId: string | null) {
  return queryOptions({ queryKey: transferKeys.home(userId), queryFn: ({ signal }) => getTransferHome(signal) });
}

export function useTransferHome(userId: string | null) {
  return useQuery(transferHomeQueryOptions(userId));
}
