import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { BodyOf, routes } from '@shared/routes';
import { fileRequestKeys } from './file-request-keys';

const createFileRequestEndpoint = endpoint<typeof routes.createFileRequest>('POST', '/api/i/transfer/requests');

export type NewFileRequest = BodyOf<typeof routes.createFileRequest>;

/** Creates a file request; its id is the link to share. */
export function createFileRequest(body: NewFileRequest) {
  return createFileRequestEndpoint({ body });
}

export function useCreateFileRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFileRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fileRequestKeys.all }),
  });
}
