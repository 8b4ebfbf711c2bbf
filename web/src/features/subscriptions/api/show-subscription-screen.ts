import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { subscriptionKeys } from './subscription-keys';

const showSubscriptionScreenEndpoint = endpoint<typeof routes.showSubscriptionScreen>(
  'GET',
  '/api/i/ourTransfers/show/subscription/v',
);

/** The caller's plan, their Pro subscription (or none) with its card and next charge, and their latest payments. */
export function showSubscriptionScreen(signal?: AbortSignal) {
  return showSubscriptionScreenEndpoint(signal ? { signal } : {});
}

export function subscriptionScreenQueryOptions(userId: string) {
  return queryOptions({ queryKey: subscriptionKeys.screen(userId), queryFn: ({ signal }) => showSubscriptionScreen(signal) });
}

export function useSubscriptionScreen(userId: string) {
  return useQuery(subscriptionScreenQueryOptions(userId));
}
