import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const showMerchantDashboardEndpoint = endpoint<typeof routes.showMerchantDashboard>(
  'GET',
  '/api/i/penpay/merchant/me/v/screen/dashboard',
);

/** The shop's 30 days of figures, its subscriptions, latest sales and product counts. */
export function showMerchantDashboard(signal?: AbortSignal) {
  return showMerchantDashboardEndpoint(signal ? { signal } : {});
}

export function merchantDashboardQueryOptions(userId: string) {
  return queryOptions({ queryKey: merchantKeys.dashboard(userId), queryFn: ({ signal }) => showMerchantDashboard(signal) });
}

export function useMerchantDashboard(userId: string) {
  return useQuery(merchantDashboardQueryOptions(userId));
}
