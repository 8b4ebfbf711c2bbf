import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const cancelSubscriptionEndpoint = endpoint<typeof routes.cancelStoreSubscription>(
  'PUT',
  '/api/i/penpay/customer/me/mod/subscription/{subscriptionProductId}/cancel',
);

/** Cancels the caller's subscription at the shop's payment account: nothing more is charged. */
export function cancelSubscription(subscriptionId: string) {
  return cancelSubscriptionEndpoint({ params: { subscriptionProductId: subscriptionId } });
}

export function useCancelSubscription(userId: string, subscriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelSubscription(subscriptionId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storeKeys.subscriptions(userId) }),
  });
}
