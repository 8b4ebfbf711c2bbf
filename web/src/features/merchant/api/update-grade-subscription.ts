import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { BodyOf, routes } from '@shared/routes';
import { afterGradeChange } from './merchant-keys';

const updateGradeSubscriptionEndpoint = endpoint<typeof routes.updateGradeSubscription>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/productStock/{productStockId}/grade/{productStockGradeId}/subscription',
);

export type GradeSubscriptionBody = BodyOf<typeof routes.updateGradeSubscription>;

/**
 * Makes a grade a subscription on a plan of the merchant's account (with the add-ons it offers),
 * or sold once again (`subscription: null`). Existing subscribers keep what they bought.
 */
export function updateGradeSubscription(productStockId: string, productStockGradeId: string, body: GradeSubscriptionBody) {
  return updateGradeSubscriptionEndpoint({ params: { productStockId, productStockGradeId }, body });
}

export function useUpdateGradeSubscription(userId: string, productStockId: string, productStockGradeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GradeSubscriptionBody) => updateGradeSubscription(productStockId, productStockGradeId, body),
    onSuccess: (grade) => afterGradeChange(queryClient, userId, productStockId, grade),
  });
}
