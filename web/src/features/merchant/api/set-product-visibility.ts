import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { afterProductChange, type Visibility } from './merchant-keys';

const setProductVisibilityEndpoint = endpoint<typeof routes.setProductVisibility>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/productStock/{productStockId}/visibility/{visibility}',
);

/** Public (listed and sold), unlisted (sold by link) or private (the merchant's draft). */
export function setProductVisibility(productStockId: string, visibility: Visibility) {
  return setProductVisibilityEndpoint({ params: { productStockId, visibility } });
}

export function useSetProductVisibility(userId: string, productStockId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (visibility: Visibility) => setProductVisibility(productStockId, visibility),
    onSuccess: () => afterProductChange(queryClient, userId, productStockId),
  });
}
