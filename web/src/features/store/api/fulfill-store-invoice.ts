import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { type PaymentMethodNonce, storeKeys } from './store-keys';

const fulfillStoreInvoiceEndpoint = endpoint<typeof routes.fulfillStoreInvoice>(
  'POST',
  '/api/i/penpay/customer/me/mod/invoice/{invoiceId}/fulfill/subscription',
);

/**
 * Pays the cart's invoice with the card behind the nonce, at the shop's own payment account.
 * Idempotent on the server (a second call charges nothing); 402 with the bank's reason when the
 * card is declined, 409 (nothing charged) when the cart changed or was paid in another tab since
 * the invoice was made, a price changed or an item stopped being sold, or the customer subscribes
 * to one of its grades already; 503 when the payment provider is out of reach.
 */
export function fulfillStoreInvoice(invoiceId: string, method: PaymentMethodNonce) {
  return fulfillStoreInvoiceEndpoint({
    params: { invoiceId },
    body: { paymentMethodNonce: method.nonce, ...(method.deviceData ? { deviceData: method.deviceData } : {}) },
  });
}

export function useFulfillStoreInvoice(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ invoiceId, method }: { invoiceId: string; method: PaymentMethodNonce }) =>
      fulfillStoreInvoice(invoiceId, method),
    // The cart page shows its confirmation from what it had; the cart itself (empty now) is
    // fetched afresh next time. Orders and subscriptions have a new entry.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: storeKeys.carts(userId), refetchType: 'none' }),
        queryClient.invalidateQueries({ queryKey: storeKeys.openCarts(userId) }),
        queryClient.invalidateQueries({ queryKey: storeKeys.orders(userId) }),
        queryClient.invalidateQueries({ queryKey: storeKeys.subscriptions(userId) }),
      ]),
  });
}
