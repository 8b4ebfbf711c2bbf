import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const createTransferEndpoint = endpoint<typeof routes.createTransfer>('POST', '/api/i/transfer/transfer');

/** Creates a draft transfer (201 with its summary); files and recipients are added to it next. A password is Pro's (403 on Free). */
export function createTransfer(
  body: { title: string; message: string; expiresInDays: number; password?: string },
  signal?: AbortSignal,
) {
  return createTransferEndpoint({ body, ...(signal ? { signal } : {}) });
}
