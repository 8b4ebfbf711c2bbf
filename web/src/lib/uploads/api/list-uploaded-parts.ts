import { endpoint } from '../../api-client';
import type { routes } from '@shared/routes';

const listPartsEndpoint = endpoint<typeof routes.listUploadedParts>('GET', '/api/i/file/file/{id}/mod/upload/parts');

/** The parts S3 already holds of a pending multipart file, so a resumed upload sends only the others. */
export function listUploadedParts(fileId: string, signal?: AbortSignal) {
  return listPartsEndpoint({ params: { id: fileId }, ...(signal ? { signal } : {}) });
}
