import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const listMySubscriptionsEndpoint = endpoint<typeof routes.listMySubscriptions>(
  'GET',
  '/api/i/penpay/customer/me/v/subscriptions',
);

/** The caller's subscriptions across every shop, with their add-ons and those they may still add. */
export function listMySubscriptions(signal?: AbortSignal) {
  return listMySubscriptionsEndpoint(signal ? { signal } : {});
}

export function mySubscriptionsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: storeKeys.subscriptions(userId),
    queryFn: ({ signal }) => listMySubscriptions(signal),
  });
}

export function useMySubscriptions(userId: string) {
  return useQuery(mySubscriptionsQueryOptions(userId));
}
