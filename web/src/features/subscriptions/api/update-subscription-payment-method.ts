import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { afterPlanChange } from './plan-changed';
import type { PaymentMethodNonce } from './subscription-keys';

const updateSubscriptionPaymentMethodEndpoint = endpoint<typeof routes.updateSubscriptionPaymentMethod>(
  'PUT',
  '/api/i/ourTransfers/subscription/{subscriptionProductId}/paymentMethod',
);

/**
 * Puts a new card on the subscription; a past-due one is charged again at once with it (402 with
 * the reason when that is declined too).
 */
export function updateSubscriptionPaymentMethod(subscriptionId: string, method: PaymentMethodNonce) {
  return updateSubscriptionPaymentMethodEndpoint({
    params: { subscriptionProductId: subscriptionId },
    body: { paymentMethodNonce: method.nonce, ...(method.deviceData ? { deviceData: method.deviceData } : {}) },
  });
}

export function useUpdateSubscriptionPaymentMethod(userId: string, subscriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (method: PaymentMethodNonce) => updateSubscriptionPaymentMethod(subscriptionId, method),
    onSuccess: ({ subscription }) => afterPlanChange(queryClient, userId, subscription),
    // A 402 here still saved the new card (only the charge of what is owed was declined): the
    // page refetches to show it. Not awaited, so the decline shows without waiting for that.
    onError: () => void afterPlanChange(queryClient, userId),
  });
}
