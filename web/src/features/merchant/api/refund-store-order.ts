import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys, type RefundOrderBody } from './merchant-keys';

const refundStoreOrderEndpoint = endpoint<typeof routes.refundStoreOrder>(
  'POST',
  '/api/i/penpay/merchant/me/mod/order/{invoiceId}/refund',
);

/**
 * Refunds one of the shop's orders through its gateway. The same body sent again (with the same
 * `knownRefunds`) is answered the same refund: a double click refunds once.
 */
export function refundStoreOrder(invoiceId: string, body: RefundOrderBody) {
  return refundStoreOrderEndpoint({ params: { invoiceId }, body });
}

/** The order's refunds show the answer at once; the dashboard's figures are fetched again (revenue net of refunds). */
export function useRefundStoreOrder(userId: string, invoiceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RefundOrderBody) => refundStoreOrder(invoiceId, body),
    onSuccess: async (answer) => {
      queryClient.setQueryData(merchantKeys.orderRefunds(userId, invoiceId), answer.order);
      await queryClient.invalidateQueries({ queryKey: merchantKeys.dashboard(userId) });
    },
    // A refusal may have changed what is left (another tab refunded): show the order as it is now.
    onError: () => queryClient.invalidateQueries({ queryKey: merchantKeys.orderRefunds(userId, invoiceId) }),
  });
}
