import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { afterPlanChange } from './plan-changed';

const cancelSubscriptionEndpoint = endpoint<typeof routes.cancelSubscription>(
  'PUT',
  '/api/i/ourTransfers/subscription/{subscriptionProductId}/cancel',
);

/** Cancels the subscription: nothing more is charged, and Pro lasts to the end of the period paid for. */
export function cancelSubscription(subscriptionId: string) {
  return cancelSubscriptionEndpoint({ params: { subscriptionProductId: subscriptionId } });
}

export function useCancelSubscription(userId: string, subscriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelSubscription(subscriptionId),
    onSuccess: ({ subscription }) => afterPlanChange(queryClient, userId, subscription),
  });
}
