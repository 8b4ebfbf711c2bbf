import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const listRequestUploadPartsEndpoint = endpoint<typeof routes.listRequestUploadParts>(
  'GET',
  '/api/i/transfer/request-upload/{id}/file/{fileId}/parts',
);

/** The parts S3 already holds of a pending multipart file of an upload. */
export function listRequestUploadParts(uploadId: string, fileId: string, signal?: AbortSignal) {
  return listRequestUploadPartsEndpoint({ params: { id: uploadId, fileId }, ...(signal ? { signal } : {}) });
}
