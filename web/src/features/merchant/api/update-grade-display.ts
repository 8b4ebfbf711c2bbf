import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { BodyOf, routes } from '@shared/routes';
import { afterGradeChange } from './merchant-keys';

const updateGradeDisplayEndpoint = endpoint<typeof routes.updateGradeDisplay>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/productStock/{productStockId}/grade/{productStockGradeId}/display',
);

export type GradeDisplayBody = BodyOf<typeof routes.updateGradeDisplay>;

/** Changes a grade's name, description and display settings; answers the grade. */
export function updateGradeDisplay(productStockId: string, productStockGradeId: string, body: GradeDisplayBody) {
  return updateGradeDisplayEndpoint({ params: { productStockId, productStockGradeId }, body });
}

export function useUpdateGradeDisplay(userId: string, productStockId: string, productStockGradeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GradeDisplayBody) => updateGradeDisplay(productStockId, productStockGradeId, body),
    onSuccess: (grade) => afterGradeChange(queryClient, userId, productStockId, grade),
  });
}
