import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { fileRequestKeys } from './file-request-keys';

const closeFileRequestEndpoint = endpoint<typeof routes.closeFileRequest>('POST', '/api/i/transfer/requests/{id}/close');

/** Closes a request: its link then says it is closed and takes no more files. */
export function closeFileRequest(id: string) {
  return closeFileRequestEndpoint({ params: { id } });
}

export function useCloseFileRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeFileRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fileRequestKeys.all }),
  });
}
