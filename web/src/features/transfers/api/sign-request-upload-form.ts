import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const signRequestUploadFormEndpoint = endpoint<typeof routes.signRequestUploadForm>(
  'POST',
  '/api/i/transfer/request-upload/{id}/file/{fileId}/form',
);

/** A new presigned POST for a pending single-upload file of an upload. */
export function signRequestUploadForm(uploadId: string, fileId: string, signal?: AbortSignal) {
  return signRequestUploadFormEndpoint({ params: { id: uploadId, fileId }, ...(signal ? { signal } : {}) });
}
