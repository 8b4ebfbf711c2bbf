import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const finishRequestUploadEndpoint = endpoint<typeof routes.finishRequestUpload>(
  'POST',
  '/api/i/transfer/request-upload/{id}/finish',
);

/** Finishes an upload: the requester is told, and the files are theirs. */
export function finishRequestUpload(uploadId: string, signal?: AbortSignal) {
  return finishRequestUploadEndpoint({ params: { id: uploadId }, ...(signal ? { signal } : {}) });
}
