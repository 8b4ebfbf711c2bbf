import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { proDiscountCodeKeys } from './pro-discount-code-keys';

const deactivateProDiscountCodeEndpoint = endpoint<typeof routes.deactivateProDiscountCode>(
  'PUT',
  '/api/i/ourTransfers/superuser/mod/discountCode/{code}/deactivate',
);

/** Stops a Pro plan code from being used; its paid uses, and the discounts it gave, stay. */
export function deactivateProDiscountCode(code: string) {
  return deactivateProDiscountCodeEndpoint({ params: { code } });
}

export function useDeactivateProDiscountCode(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deactivateProDiscountCode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: proDiscountCodeKeys.list(userId) }),
  });
}
