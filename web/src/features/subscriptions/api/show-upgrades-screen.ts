import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { subscriptionKeys } from './subscription-keys';

const showUpgradesScreenEndpoint = endpoint<typeof routes.showUpgradesScreen>('GET', '/api/i/ourTransfers/show/upgrades');

/** Free and Pro side by side with Pro's prices, and for a signed-in caller their plan and subscription. */
export function showUpgradesScreen(signal?: AbortSignal) {
  return showUpgradesScreenEndpoint(signal ? { signal } : {});
}

/** `userId` is the signed-in user, '' for a visitor: the answer differs between them. */
export function upgradesScreenQueryOptions(userId: string) {
  return queryOptions({ queryKey: subscriptionKeys.upgrades(userId), queryFn: ({ signal }) => showUpgradesScreen(signal) });
}

/** Idle until it is known who is asking (`enabled`), so a visitor's answer is not cached as a member's. */
export function useUpgradesScreen(userId: string, enabled = true) {
  return useQuery({ ...upgradesScreenQueryOptions(userId), enabled });
}
