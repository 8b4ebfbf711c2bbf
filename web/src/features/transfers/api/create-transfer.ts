import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const createTransferEndpoint = endpoint<typeof routes.createTransfer>('POST', '/api/i/transfer/transfer');

/** Creates a draft transfer (201 with its summary); files and recipients are added to it next. */
export function createTransfer(body: { title: string; message: string; expiresInDays: number }, signal?: AbortSignal) {
  return createTransferEndpoint({ body, ...(signal ? { signal } : {}) });
}
