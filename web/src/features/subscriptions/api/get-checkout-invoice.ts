import { useMutation } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import type { ProPriceId } from './subscription-keys';

const getCheckoutInvoiceEndpoint = endpoint<typeof routes.getCheckoutInvoice>(
  'GET',
  '/api/i/ourTransfers/subscription/checkout_invoice',
);

/**
 * The caller's invoice for a price, priced by the server with the discount code when one is
 * given (400 or 409 with the reason when the code cannot be used), or without one.
 */
export function getCheckoutInvoice(priceId: ProPriceId, discountCode?: string) {
  return getCheckoutInvoiceEndpoint({ query: { priceId, ...(discountCode ? { discountCode } : {}) } });
}

/**
 * Applying or removing a code at checkout. A mutation, not a query: it is asked for on a click,
 * and its answer replaces the checkout's invoice without refetching the checkout (whose client
 * token builds the card form: a refetch would lose what was typed in it).
 */
export function useCheckoutInvoiceWithCode(priceId: ProPriceId) {
  return useMutation({ mutationFn: (discountCode: string | undefined) => getCheckoutInvoice(priceId, discountCode) });
}
