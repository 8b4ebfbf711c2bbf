import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const signRequestUploadPartsEndpoint = endpoint<typeof routes.signRequestUploadParts>(
  'POST',
  '/api/i/transfer/request-upload/{id}/file/{fileId}/parts',
);

/** Presigned PUT urls for up to 100 parts of a pending multipart file of an upload. */
export function signRequestUploadParts(uploadId: string, fileId: string, partNumbers: readonly number[], signal?: AbortSignal) {
  return signRequestUploadPartsEndpoint({
    params: { id: uploadId, fileId },
    body: { partNumbers: [...partNumbers] },
    ...(signal ? { signal } : {}),
  });
}
