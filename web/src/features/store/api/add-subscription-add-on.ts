import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const addSubscriptionAddOnEndpoint = endpoint<typeof routes.addStoreSubscriptionAddOn>(
  'PUT',
  '/api/i/penpay/customer/me/mod/subscription/{subscriptionProductId}/addOn',
);

/**
 * Adds an add-on to the caller's subscription, or sets how many of it: the rest of the current
 * cycle is charged at once, prorated (402 with the reason, and nothing changed, when declined).
 */
export function addSubscriptionAddOn(subscriptionId: string, addOnId: string, quantity: number) {
  return addSubscriptionAddOnEndpoint({ params: { subscriptionProductId: subscriptionId }, body: { addOnId, quantity } });
}

export function useAddSubscriptionAddOn(userId: string, subscriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ addOnId, quantity }: { addOnId: string; quantity: number }) =>
      addSubscriptionAddOn(subscriptionId, addOnId, quantity),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storeKeys.subscriptions(userId) }),
  });
}
