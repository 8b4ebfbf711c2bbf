import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const downloadAllEndpoint = endpoint<typeof routes.downloadAllFiles>('GET', '/api/i/transfer/transfer/{id}/v/package/download');

/** The zip's name and each ready file's name, size and a download url valid for an hour. */
export function getZipManifest(id: string, signal?: AbortSignal) {
  return downloadAllEndpoint({ params: { id }, ...(signal ? { signal } : {}) });
}
