import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const deleteFileEndpoint = endpoint<typeof routes.deleteFile>('DELETE', '/api/i/file/file/{id}/mod');

/** Deletes a ready file of a draft (and its bytes). */
export function deleteFile(fileId: string, signal?: AbortSignal) {
  return deleteFileEndpoint({ params: { id: fileId }, ...(signal ? { signal } : {}) });
}
