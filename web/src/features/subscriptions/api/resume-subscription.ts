import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { afterPlanChange } from './plan-changed';
import { subscriptionKeys } from './subscription-keys';

const resumeSubscriptionEndpoint = endpoint<typeof routes.resumeSubscription>(
  'PUT',
  '/api/i/ourTransfers/subscription/{subscriptionProductId}/resume',
);

/**
 * Resumes a canceled plan while its paid time runs: nothing is charged now, and it renews on the
 * day after the paid time. The answer is the subscription that renews (a new one at the gateway).
 */
export function resumeSubscription(subscriptionId: string) {
  return resumeSubscriptionEndpoint({ params: { subscriptionProductId: subscriptionId } });
}

export function useResumeSubscription(userId: string, subscriptionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => resumeSubscription(subscriptionId),
    onSuccess: async ({ subscription }) => {
      await Promise.all([
        afterPlanChange(queryClient, userId, subscription),
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.checkouts(userId) }),
      ]);
    },
  });
}
