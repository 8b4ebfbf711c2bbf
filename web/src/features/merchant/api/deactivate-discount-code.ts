import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const deactivateDiscountCodeEndpoint = endpoint<typeof routes.deactivateDiscountCode>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/discountCode/{code}/deactivate',
);

/** Stops a code of the caller's shop from being used; its paid uses stay counted. */
export function deactivateDiscountCode(code: string) {
  return deactivateDiscountCodeEndpoint({ params: { code } });
}

export function useDeactivateDiscountCode(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deactivateDiscountCode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: merchantKeys.discountCodes(userId) }),
  });
}
