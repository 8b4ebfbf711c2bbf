import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const removeCartItemEndpoint = endpoint<typeof routes.removeCartItem>(
  'DELETE',
  '/api/i/penpay/customer/me/mod/cartItem/{cartItemId}',
);

/** Takes an item out of the caller's cart; 404 when it is not in it (removed already, in another tab). */
export function removeCartItem(cartItemId: string) {
  return removeCartItemEndpoint({ params: { cartItemId } });
}

export function useRemoveCartItem(userId: string, merchantAccountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cartItemId: string) => removeCartItem(cartItemId),
    // Refetched either way: a 404 means the cart shown is out of date.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: storeKeys.cart(userId, merchantAccountId) }),
        queryClient.invalidateQueries({ queryKey: storeKeys.openCarts(userId) }),
      ]),
  });
}
