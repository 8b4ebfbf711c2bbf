import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const getRequestUploadEndpoint = endpoint<typeof routes.getRequestUpload>('GET', '/api/i/transfer/request-upload/{id}/v');

/** An upload as its uploader sees it: their own files only. */
export function getRequestUpload(id: string, signal?: AbortSignal) {
  return getRequestUploadEndpoint({ params: { id }, ...(signal ? { signal } : {}) });
}
