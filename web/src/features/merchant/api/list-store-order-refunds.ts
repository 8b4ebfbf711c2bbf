import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const listStoreOrderRefundsEndpoint = endpoint<typeof routes.listStoreOrderRefunds>(
  'GET',
  '/api/i/penpay/merchant/me/v/order/{invoiceId}/refunds',
);

/** One of the shop's orders as it is refunded: its lines, what is left to refund, and its refunds. */
export function listStoreOrderRefunds(invoiceId: string, signal?: AbortSignal) {
  return listStoreOrderRefundsEndpoint({ params: { invoiceId }, ...(signal ? { signal } : {}) });
}

export function storeOrderRefundsQueryOptions(userId: string, invoiceId: string) {
  return queryOptions({
    queryKey: merchantKeys.orderRefunds(userId, invoiceId),
    queryFn: ({ signal }) => listStoreOrderRefunds(invoiceId, signal),
  });
}

export function useStoreOrderRefunds(userId: string, invoiceId: string) {
  return useQuery(storeOrderRefundsQueryOptions(userId, invoiceId));
}
