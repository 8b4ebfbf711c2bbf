import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const updateGradeDownloadsEndpoint = endpoint<typeof routes.updateGradeDownloads>(
  'PUT',
  '/api/i/penpay/merchant/me/mod/grade/{productStockGradeId}/downloadsPerPurchase',
);

/** Sets how many downloads of each file one purchase of the grade gets; answers the grade's files. */
export function updateGradeDownloads(productStockGradeId: string, downloadsPerPurchase: number) {
  return updateGradeDownloadsEndpoint({ params: { productStockGradeId }, body: { downloadsPerPurchase } });
}

export function useUpdateGradeDownloads(userId: string, productStockGradeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (downloadsPerPurchase: number) => updateGradeDownloads(productStockGradeId, downloadsPerPurchase),
    onSuccess: (files) => queryClient.setQueryData(merchantKeys.gradeFiles(userId, productStockGradeId), files),
  });
}
