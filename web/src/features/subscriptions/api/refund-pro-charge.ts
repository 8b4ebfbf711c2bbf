import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { proRefundKeys, type RefundProChargeBody } from './pro-refund-keys';

const refundProChargeEndpoint = endpoint<typeof routes.refundProCharge>(
  'POST',
  '/api/i/ourTransfers/superuser/mod/payment/{transactionId}/refund',
);

/** Refunds a Pro charge (voided when not settled yet); the same request sent twice refunds once. */
export function refundProCharge({ transactionId, body }: { transactionId: string; body: RefundProChargeBody }) {
  return refundProChargeEndpoint({ params: { transactionId }, body });
}

export function useRefundProCharge(userId: string, person: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refundProCharge,
    onSettled: () => queryClient.invalidateQueries({ queryKey: proRefundKeys.person(userId, person) }),
  });
}
