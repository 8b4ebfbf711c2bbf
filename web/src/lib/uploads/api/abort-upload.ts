import { endpoint } from '../../api-client';
import type { routes } from '@shared/routes';

const abortUploadEndpoint = endpoint<typeof routes.abortUpload>('DELETE', '/api/i/file/file/{id}/mod/upload');

/** Cancels a pending file's upload: S3 drops its parts and the file leaves the transfer. */
export function abortUpload(fileId: string, signal?: AbortSignal) {
  return abortUploadEndpoint({ params: { id: fileId }, ...(signal ? { signal } : {}) });
}
