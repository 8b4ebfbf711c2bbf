import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { subscriptionKeys } from './subscription-keys';

const getPaymentClientTokenEndpoint = endpoint<typeof routes.getPaymentClientToken>(
  'GET',
  '/api/i/ourTransfers/subscription/client_token',
);

/** A client token for the card form, to put a new card on the subscription. */
export function getPaymentClientToken(signal?: AbortSignal) {
  return getPaymentClientTokenEndpoint(signal ? { signal } : {});
}

export function paymentClientTokenQueryOptions(userId: string) {
  return queryOptions({
    queryKey: subscriptionKeys.clientToken(userId),
    queryFn: ({ signal }) => getPaymentClientToken(signal),
    // A client token expires (a day at Braintree): each opening of the card form asks for a new
    // one, and none is refetched while the form is in use, which would rebuild it.
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** Asked for only while the card form is shown (`enabled`). */
export function usePaymentClientToken(userId: string, enabled = true) {
  return useQuery({ ...paymentClientTokenQueryOptions(userId), enabled });
}
