import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { type PaymentMethodNonce, storeKeys } from './store-keys';

const updateSubscriptionPaymentMethodEndpoint = endpoint<typeof routes.updateStoreSubscriptionPaymentMethod>(
  'PUT',
  '/api/i/penpay/customer/me/mod/subscription/{subscriptionProductId}/paymentMethod',
);

/**
 * Puts a new card on the caller's subscription; a past-due one is charged again at once (402
 * with the reason when that is declined too).
 */
export function updateSubscriptionPaymentMethod(subscriptionId: string, method: PaymentMethodNonce) {
  return updateSubscriptionPaymentMethodEndpoint({
    params: { subscriptionProductId: subscriptionId },
    body: { paymentMethodNonce: method.nonce, ...(method.deviceData ? { deviceData: method.deviceData } : {}) },
  });
}

export function useUpdateSubscriptionPaymentMethod(userId: string, subscriptionId: string) {
  const queryClient = useQueryClient();
  const refetch = () => queryClient.invalidateQueries({ queryKey: storeKeys.subscriptions(userId) });
  return useMutation({
    mutationFn: (method: PaymentMethodNonce) => updateSubscriptionPaymentMethod(subscriptionId, method),
    onSuccess: refetch,
    // A declined retry of what is owed may still have saved the new card: the list shows which.
    // Not awaited, so the decline shows without waiting for it.
    onError: () => void refetch(),
  });
}
