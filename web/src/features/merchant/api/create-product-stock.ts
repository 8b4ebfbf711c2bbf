import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { BodyOf, routes } from '@shared/routes';
import { afterProductChange } from './merchant-keys';

const createProductStockEndpoint = endpoint<typeof routes.createProductStock>('POST', '/api/i/penpay/merchant/me/mod/product');

export type CreateProductBody = BodyOf<typeof routes.createProductStock>;

/** Adds a product to the caller's shop, stocked; private (a draft) unless a visibility is given. */
export function createProductStock(body: CreateProductBody) {
  return createProductStockEndpoint({ body });
}

export function useCreateProductStock(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProductStock,
    // Not awaited: the merchant is taken to the new product, which loads on its own.
    onSuccess: (product) => void afterProductChange(queryClient, userId, product.id, product),
  });
}
