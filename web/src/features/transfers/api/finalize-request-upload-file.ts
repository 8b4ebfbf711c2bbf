import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const finalizeRequestUploadFileEndpoint = endpoint<typeof routes.finalizeRequestUploadFile>(
  'PUT',
  '/api/i/transfer/request-upload/{id}/file/{fileId}/finalize',
);

/** Has the server check an uploaded file of an upload and make it ready. */
export function finalizeRequestUploadFile(uploadId: string, fileId: string, signal?: AbortSignal) {
  return finalizeRequestUploadFileEndpoint({ params: { id: uploadId, fileId }, ...(signal ? { signal } : {}) });
}
