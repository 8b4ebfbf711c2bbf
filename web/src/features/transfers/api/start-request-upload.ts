import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const startRequestUploadEndpoint = endpoint<typeof routes.startRequestUpload>('POST', '/api/i/transfer/request/{id}/uploads');

/** Starts an upload through a request; the answer's cookie (the upload grant) opens its steps in this browser. */
export function startRequestUpload(requestId: string, body: { name: string; note: string }) {
  return startRequestUploadEndpoint({ params: { id: requestId }, body });
}
