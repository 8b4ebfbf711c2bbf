import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { afterPlanChange } from './plan-changed';
import type { PaymentMethodNonce } from './subscription-keys';

const fulfillSubscriptionInvoiceEndpoint = endpoint<typeof routes.fulfillSubscriptionInvoice>(
  'POST',
  '/api/i/ourTransfers/checkout/invoice/{invoiceId}/fulfill/subscription',
);

/**
 * Pays the invoice with the card behind the nonce and starts the subscription. Idempotent on the
 * server; 402 (PAYMENT_DECLINED) with a message for the buyer when the card is declined, 409 when
 * already on Pro, 503 when the payment provider is out of reach.
 */
export function fulfillSubscriptionInvoice(invoiceId: string, method: PaymentMethodNonce) {
  return fulfillSubscriptionInvoiceEndpoint({
    params: { invoiceId },
    body: { paymentMethodNonce: method.nonce, ...(method.deviceData ? { deviceData: method.deviceData } : {}) },
  });
}

export function useFulfillSubscriptionInvoice(userId: string, invoiceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (method: PaymentMethodNonce) => fulfillSubscriptionInvoice(invoiceId, method),
    // Not awaited: the buyer is sent on to their subscription at once, which loads afresh anyway.
    // The checkout's own answer is not refetched (the page it belongs to is being left; it is
    // dropped from the cache once nothing shows it).
    onSuccess: ({ subscription }) => void afterPlanChange(queryClient, userId, subscription),
  });
}
