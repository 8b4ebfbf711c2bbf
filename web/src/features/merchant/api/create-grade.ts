import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { BodyOf, routes } from '@shared/routes';
import { afterGradeChange } from './merchant-keys';

const createGradeEndpoint = endpoint<typeof routes.createGrade>(
  'POST',
  '/api/i/penpay/merchant/me/mod/productStock/{productStockId}/grade',
);

export type CreateGradeBody = BodyOf<typeof routes.createGrade>;

/**
 * Adds a grade to one of the caller's products, sold once or on a plan of their Braintree account
 * (checked there: 400 for a plan it does not know or of another currency, 409 when none is connected).
 */
export function createGrade(productStockId: string, body: CreateGradeBody) {
  return createGradeEndpoint({ params: { productStockId }, body });
}

export function useCreateGrade(userId: string, productStockId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateGradeBody) => createGrade(productStockId, body),
    onSuccess: (grade) => afterGradeChange(queryClient, userId, productStockId, grade),
  });
}
