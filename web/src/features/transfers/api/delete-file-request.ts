import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { fileRequestKeys } from './file-request-keys';

const deleteFileRequestEndpoint = endpoint<typeof routes.deleteFileRequest>('DELETE', '/api/i/transfer/requests/{id}');

/** Deletes a request; what was uploaded through it stays in the requester's transfers. */
export function deleteFileRequest(id: string) {
  return deleteFileRequestEndpoint({ params: { id } });
}

export function useDeleteFileRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFileRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fileRequestKeys.all }),
  });
}
