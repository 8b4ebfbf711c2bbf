import { endpoint } from '../../api-client';
import type { routes } from '@shared/routes';

const finalizeFileEndpoint = endpoint<typeof routes.finalizeBRecord>('PUT', '/api/i/file/file/{id}/mod/finalizeBRecord');

/** Has the server check what S3 holds for a pending file; the file is then ready. */
export function finalizeBRecord(fileId: string, signal?: AbortSignal) {
  return finalizeFileEndpoint({ params: { id: fileId }, ...(signal ? { signal } : {}) });
}
