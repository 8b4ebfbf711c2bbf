import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { afterGradeChange } from './merchant-keys';

const unstockGradeEndpoint = endpoint<typeof routes.unstockGrade>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/grade/{productStockGradeId}/unstock',
);

/** Stops selling a grade; its subscribers keep their subscriptions and still see it. */
export function unstockGrade(productStockGradeId: string) {
  return unstockGradeEndpoint({ params: { productStockGradeId } });
}

/** `productStockId` is the grade's product, whose answers list the grade. */
export function useUnstockGrade(userId: string, productStockId: string, productStockGradeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unstockGrade(productStockGradeId),
    onSuccess: () => afterGradeChange(queryClient, userId, productStockId),
  });
}
