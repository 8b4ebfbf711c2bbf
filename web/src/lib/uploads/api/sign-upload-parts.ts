import { endpoint } from '../../api-client';
import type { routes } from '@shared/routes';

const signPartsEndpoint = endpoint<typeof routes.signUploadParts>('POST', '/api/i/file/file/{id}/mod/upload/parts');

/** Presigned PUT urls for up to 100 parts of a pending multipart file. */
export function signUploadParts(fileId: string, partNumbers: readonly number[], signal?: AbortSignal) {
  return signPartsEndpoint({ params: { id: fileId }, body: { partNumbers: [...partNumbers] }, ...(signal ? { signal } : {}) });
}
