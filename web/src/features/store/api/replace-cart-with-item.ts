import { useMutation, useQueryClient } from '@tanstack/react-query';
import { track } from '../../../lib/analytics';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storeKeys } from './store-keys';

const replaceCartWithItemEndpoint = endpoint<typeof routes.replaceCartWithItem>(
  'POST',
  '/api/i/penpay/customer/me/mod/loneCartItem',
);

/** "Buy now": empties the caller's cart at the grade's shop and puts this one grade in it. */
export function replaceCartWithItem(productStockGradeId: string, quantity: number) {
  return replaceCartWithItemEndpoint({ body: { productStockGradeId, quantity } });
}

export function useReplaceCartWithItem(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ productStockGradeId, quantity }: { productStockGradeId: string; quantity: number }) =>
      replaceCartWithItem(productStockGradeId, quantity),
    // The cart page is opened next: whatever it held before must not show, even for a moment.
    onSuccess: (item, { quantity }) => {
      track('Added To Cart', { shopId: item.merchantAccountId, quantity });
      return Promise.all([
        queryClient.resetQueries({ queryKey: storeKeys.cart(userId, item.merchantAccountId) }),
        queryClient.invalidateQueries({ queryKey: storeKeys.openCarts(userId) }),
      ]);
    },
  });
}
