import { useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { proDiscountCodeKeys } from './pro-discount-code-keys';

const listProDiscountCodesEndpoint = endpoint<typeof routes.listProDiscountCodes>(
  'GET',
  '/api/i/ourTransfers/superuser/v/discountCodes',
);

/** The Pro plan's discount codes, newest first, with their paid uses (superusers only). */
export function listProDiscountCodes(signal?: AbortSignal) {
  return listProDiscountCodesEndpoint(signal ? { signal } : {});
}

export function useProDiscountCodes(userId: string, enabled: boolean) {
  return useQuery({
    queryKey: proDiscountCodeKeys.list(userId),
    queryFn: ({ signal }) => listProDiscountCodes(signal),
    enabled,
  });
}
