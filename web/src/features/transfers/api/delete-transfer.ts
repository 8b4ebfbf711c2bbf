import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { transferKeys } from './transfer-keys';

const deleteTransferEndpoint = endpoint<typeof routes.deleteTransfer>('DELETE', '/api/i/transfer/transfer/{id}');

/** Deletes the caller's transfer at once, sent or not: its files and its recipients' access go with it. */
export function deleteTransfer(id: string) {
  return deleteTransferEndpoint({ params: { id } });
}

export function useDeleteTransfer(id: string, options: { onDeleted?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteTransfer(id),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: transferKeys.view(id) });
      queryClient.removeQueries({ queryKey: transferKeys.package(id) });
      await queryClient.invalidateQueries({ queryKey: transferKeys.lists });
      options.onDeleted?.();
    },
  });
}
