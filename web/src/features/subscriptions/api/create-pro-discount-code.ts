import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { type CreateProDiscountCodeBody, proDiscountCodeKeys } from './pro-discount-code-keys';

const createProDiscountCodeEndpoint = endpoint<typeof routes.createProDiscountCode>(
  'POST',
  '/api/i/ourTransfers/superuser/mod/discountCode',
);

/** Creates a Pro plan discount code (unique whatever its case: 409 when the plan has it). */
export function createProDiscountCode(body: CreateProDiscountCodeBody) {
  return createProDiscountCodeEndpoint({ body });
}

export function useCreateProDiscountCode(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProDiscountCode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proDiscountCodeKeys.list(userId) }),
  });
}
