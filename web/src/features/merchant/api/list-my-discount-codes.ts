import { useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const listMyDiscountCodesEndpoint = endpoint<typeof routes.listMyDiscountCodes>(
  'GET',
  '/api/i/penpay/merchant/me/v/feed/discountCodes',
);

/** The caller's shop's discount codes, newest first, with their uses so far. */
export function listMyDiscountCodes(signal?: AbortSignal) {
  return listMyDiscountCodesEndpoint(signal ? { signal } : {});
}

export function useMyDiscountCodes(userId: string) {
  return useQuery({ queryKey: merchantKeys.discountCodes(userId), queryFn: ({ signal }) => listMyDiscountCodes(signal) });
}
