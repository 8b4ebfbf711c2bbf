import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const getMyMerchantAccountEndpoint = endpoint<typeof routes.getMyMerchantAccount>('GET', '/api/i/penpay/merchant/me/v');

/** The caller's merchant account (never its keys); 404 when they have none yet. */
export function getMyMerchantAccount(signal?: AbortSignal) {
  return getMyMerchantAccountEndpoint(signal ? { signal } : {});
}

export function myMerchantAccountQueryOptions(userId: string) {
  return queryOptions({ queryKey: merchantKeys.account(userId), queryFn: ({ signal }) => getMyMerchantAccount(signal) });
}

export function useMyMerchantAccount(userId: string) {
  return useQuery(myMerchantAccountQueryOptions(userId));
}
