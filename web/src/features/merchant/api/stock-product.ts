import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { afterProductChange } from './merchant-keys';

const stockProductEndpoint = endpoint<typeof routes.stockProduct>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/productStock/{productStockId}/stock',
);

/** Sells an unstocked product again. */
export function stockProduct(productStockId: string) {
  return stockProductEndpoint({ params: { productStockId } });
}

export function useStockProduct(userId: string, productStockId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => stockProduct(productStockId),
    onSuccess: () => afterProductChange(queryClient, userId, productStockId),
  });
}
