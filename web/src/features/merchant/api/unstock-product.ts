import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { afterProductChange } from './merchant-keys';

const unstockProductEndpoint = endpoint<typeof routes.unstockProduct>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/productStock/{productStockId}/unstock',
);

/** Stops selling a product; its subscribers keep their subscriptions and still see it. */
export function unstockProduct(productStockId: string) {
  return unstockProductEndpoint({ params: { productStockId } });
}

export function useUnstockProduct(userId: string, productStockId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unstockProduct(productStockId),
    onSuccess: () => afterProductChange(queryClient, userId, productStockId),
  });
}
