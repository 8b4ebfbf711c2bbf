import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { merchantKeys } from './merchant-keys';

const removeGradeFileEndpoint = endpoint<typeof routes.removeGradeFile>(
  'DELETE',
  '/api/i/penpay/merchant/me/mod/grade/{productStockGradeId}/file/{fileId}',
);

/** Removes a file from the grade, with its bytes; answers the removed file. */
export function removeGradeFile(productStockGradeId: string, fileId: string) {
  return removeGradeFileEndpoint({ params: { productStockGradeId, fileId } });
}

export function useRemoveGradeFile(userId: string, productStockGradeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fileId: string) => removeGradeFile(productStockGradeId, fileId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: merchantKeys.gradeFiles(userId, productStockGradeId) }),
  });
}
