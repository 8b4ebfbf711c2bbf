import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const listMyGatewayPlansEndpoint = endpoint<typeof routes.listMyGatewayPlans>('GET', '/api/i/penpay/merchant/me/v/gateway/plans');

/**
 * The plans (and their add-ons) of the caller's connected Braintree account; 409 when none is
 * connected, 503 when Braintree is out of reach.
 */
export function listMyGatewayPlans(signal?: AbortSignal) {
  return listMyGatewayPlansEndpoint(signal ? { signal } : {});
}

export function myGatewayPlansQueryOptions(userId: string) {
  return queryOptions({
    queryKey: merchantKeys.plans(userId),
    queryFn: ({ signal }) => listMyGatewayPlans(signal),
    // Plans change in Braintree's Control Panel, rarely: a minute saves a gateway round trip each
    // time a grade form opens, and connecting another account refetches them anyway.
    staleTime: 60_000,
  });
}

/** Asked for only while a plan can be picked (`enabled`). */
export function useMyGatewayPlans(userId: string, enabled = true) {
  return useQuery({ ...myGatewayPlansQueryOptions(userId), enabled });
}
