import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { afterGradeChange } from './merchant-keys';

const stockGradeEndpoint = endpoint<typeof routes.stockGrade>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/grade/{productStockGradeId}/stock',
);

/** Sells an unstocked grade again. */
export function stockGrade(productStockGradeId: string) {
  return stockGradeEndpoint({ params: { productStockGradeId } });
}

/** `productStockId` is the grade's product, whose answers list the grade. */
export function useStockGrade(userId: string, productStockId: string, productStockGradeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => stockGrade(productStockGradeId),
    onSuccess: () => afterGradeChange(queryClient, userId, productStockId),
  });
}
