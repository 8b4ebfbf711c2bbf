import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { type CreateDiscountCodeBody, merchantKeys } from './merchant-keys';

const createDiscountCodeEndpoint = endpoint<typeof routes.createDiscountCode>(
  'POST',
  '/api/i/penpay/merchant/me/mod/discountCode',
);

/** Creates a discount code for the caller's shop (unique whatever its case: 409 when the shop has it). */
export function createDiscountCode(body: CreateDiscountCodeBody) {
  return createDiscountCodeEndpoint({ body });
}

export function useCreateDiscountCode(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDiscountCode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: merchantKeys.discountCodes(userId) }),
  });
}
