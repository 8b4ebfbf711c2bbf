import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { BodyOf, routes } from '@shared/routes';
import { afterProductChange } from './merchant-keys';

const updateProductDisplayEndpoint = endpoint<typeof routes.updateProductDisplay>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/productStock/{productStockId}/display',
);

export type ProductDisplayBody = BodyOf<typeof routes.updateProductDisplay>;

/** Changes a product's title, description, images and display settings; answers the product. */
export function updateProductDisplay(productStockId: string, body: ProductDisplayBody) {
  return updateProductDisplayEndpoint({ params: { productStockId }, body });
}

export function useUpdateProductDisplay(userId: string, productStockId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProductDisplayBody) => updateProductDisplay(productStockId, body),
    onSuccess: (product) => afterProductChange(queryClient, userId, productStockId, product),
  });
}
