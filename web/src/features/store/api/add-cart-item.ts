import { useMutation, useQueryClient } from '@tanstack/react-query';
import { track } from '../../../lib/analytics';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const addCartItemEndpoint = endpoint<typeof routes.addCartItem>('POST', '/api/i/penpay/customer/me/mod/cartItem');

/**
 * Puts a grade in the caller's cart at its shop: the same one-time grade again adds to its
 * quantity. 400 with the reason when it cannot be bought (or the cart is full).
 */
export function addCartItem(productStockGradeId: string, quantity: number) {
  return addCartItemEndpoint({ body: { productStockGradeId, quantity } });
}

export function useAddCartItem(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ productStockGradeId, quantity }: { productStockGradeId: string; quantity: number }) =>
      addCartItem(productStockGradeId, quantity),
    onSuccess: (item, { quantity }) => {
      track('Added To Cart', { shopId: item.merchantAccountId, quantity });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: storeKeys.cart(userId, item.merchantAccountId) }),
        queryClient.invalidateQueries({ queryKey: storeKeys.openCarts(userId) }),
      ]);
    },
  });
}
