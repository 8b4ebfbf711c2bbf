import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { afterGradeChange } from './merchant-keys';

const updateGradePlanEndpoint = endpoint<typeof routes.updateGradePlan>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/productStock/{productStockId}/grade/{productStockGradeId}/subscription/braintreePlanId',
);

/** Moves a subscription grade to another plan; new subscriptions use it, existing ones keep theirs. */
export function updateGradePlan(productStockId: string, productStockGradeId: string, braintreePlanId: string) {
  return updateGradePlanEndpoint({ params: { productStockId, productStockGradeId }, body: { braintreePlanId } });
}

export function useUpdateGradePlan(userId: string, productStockId: string, productStockGradeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (braintreePlanId: string) => updateGradePlan(productStockId, productStockGradeId, braintreePlanId),
    onSuccess: (grade) => afterGradeChange(queryClient, userId, productStockId, grade),
  });
}
