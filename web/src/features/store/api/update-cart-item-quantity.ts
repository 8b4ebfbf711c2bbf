import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const updateCartItemQuantityEndpoint = endpoint<typeof routes.updateCartItemQuantity>(
  'PUT',
  '/api/i/penpay/customer/me/mod/cartItem/{cartItemId}',
);

/**
 * Sets how many of an item the caller's cart holds (1 to 99; a subscription is 1). 400 with the
 * reason when the grade can no longer be bought, 404 when the item is not in the cart any more.
 */
export function updateCartItemQuantity(cartItemId: string, quantity: number) {
  return updateCartItemQuantityEndpoint({ params: { cartItemId }, body: { quantity } });
}

export function useUpdateCartItemQuantity(userId: string, merchantAccountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ cartItemId, quantity }: { cartItemId: string; quantity: number }) =>
      updateCartItemQuantity(cartItemId, quantity),
    // Refetched either way: the server prices the cart, and a refusal may mean it is out of date.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: storeKeys.cart(userId, merchantAccountId) }),
        queryClient.invalidateQueries({ queryKey: storeKeys.openCarts(userId) }),
      ]),
  });
}
