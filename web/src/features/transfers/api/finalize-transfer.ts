import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const finalizeEndpoint = endpoint<typeof routes.finalizeTransfer>('POST', '/api/i/transfer/transfer/{id}/finalize');

/** Sends the draft: the recipients are emailed and the transfer cannot grow any more. */
export function finalizeTransfer(id: string, signal?: AbortSignal) {
  return finalizeEndpoint({ params: { id }, ...(signal ? { signal } : {}) });
}
