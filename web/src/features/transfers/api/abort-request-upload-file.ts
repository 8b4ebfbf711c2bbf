import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const abortRequestUploadFileEndpoint = endpoint<typeof routes.abortRequestUploadFile>(
  'DELETE',
  '/api/i/transfer/request-upload/{id}/file/{fileId}',
);

/** Removes a file from an upload that is not finished, pending or uploaded. */
export function abortRequestUploadFile(uploadId: string, fileId: string, signal?: AbortSignal) {
  return abortRequestUploadFileEndpoint({ params: { id: uploadId, fileId }, ...(signal ? { signal } : {}) });
}
