import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const removeSubscriptionAddOnEndpoint = endpoint<typeof routes.removeStoreSubscriptionAddOn>(
  'DELETE',
  '/api/i/penpay/customer/me/mod/subscription/{subscriptionProductId}/addOn/{addOnId}',
);

/** Takes an add-on off the caller's subscription from the next cycle: the current one is not refunded. */
export function removeSubscriptionAddOn(subscriptionId: string, addOnId: string) {
  return removeSubscriptionAddOnEndpoint({ params: { subscriptionProductId: subscriptionId, addOnId } });
}

export function useRemoveSubscriptionAddOn(userId: string, subscriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (addOnId: string) => removeSubscriptionAddOn(subscriptionId, addOnId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storeKeys.subscriptions(userId) }),
  });
}
