import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { afterGradeChange } from './merchant-keys';

const updateGradeCostEndpoint = endpoint<typeof routes.updateGradeCost>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/productStock/{productStockId}/grade/{productStockGradeId}/cost',
);

/** Sets a grade's price in cents; carts show the change before anyone pays, subscribers keep theirs. */
export function updateGradeCost(productStockId: string, productStockGradeId: string, amountMinor: number) {
  return updateGradeCostEndpoint({ params: { productStockId, productStockGradeId }, body: { amountMinor } });
}

export function useUpdateGradeCost(userId: string, productStockId: string, productStockGradeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (amountMinor: number) => updateGradeCost(productStockId, productStockGradeId, amountMinor),
    onSuccess: (grade) => afterGradeChange(queryClient, userId, productStockId, grade),
  });
}
