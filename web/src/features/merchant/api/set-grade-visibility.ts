import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { afterGradeChange, type Visibility } from './merchant-keys';

const setGradeVisibilityEndpoint = endpoint<typeof routes.setGradeVisibility>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/grade/{productStockGradeId}/visibility/{visibility}',
);

/** Public, unlisted or private, as for products. */
export function setGradeVisibility(productStockGradeId: string, visibility: Visibility) {
  return setGradeVisibilityEndpoint({ params: { productStockGradeId, visibility } });
}

/** `productStockId` is the grade's product, whose answers list the grade. */
export function useSetGradeVisibility(userId: string, productStockId: string, productStockGradeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (visibility: Visibility) => setGradeVisibility(productStockGradeId, visibility),
    onSuccess: () => afterGradeChange(queryClient, userId, productStockId),
  });
}
