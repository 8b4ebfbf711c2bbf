import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const timingEndpoint = endpoint<typeof routes.recordFinalizeTiming>('POST', '/api/i/transfer/transfer/{id}/finalize/timing');

/** The longest time the route accepts: a week. */
export const MAX_TIMING_MS = 7 * 24 * 3_600_000;

/** Reports how long the send took, from the click to the finalized transfer, in whole milliseconds. */
export function recordFinalizeTiming(id: string, elapsedMs: number, signal?: AbortSignal) {
  const ms = Math.min(MAX_TIMING_MS, Math.max(0, Math.round(elapsedMs)));
  return timingEndpoint({ params: { id }, body: { elapsedMs: ms }, ...(signal ? { signal } : {}) });
}
