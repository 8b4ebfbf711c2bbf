import { processWideStorage } from './process-wide-storage';

/**
 * How long the current invocation has left before Lambda stops it, for code deep in a request
 * that waits and retries (contended writes): a function stopped at its timeout answers the
 * caller API Gateway's generic 500, where giving up a moment earlier answers what happened.
 * Set by the request pipeline (create-handler.ts) around each route's handler; undefined
 * elsewhere (jobs, tests calling library code), where nothing changes.
 */
const invocations = processWideStorage<() => number>('invocation-deadline');

export function withRemainingTime<T>(remainingTimeMs: () => number, work: () => T): T {
  return invocations.run(remainingTimeMs, work);
}

/** Milliseconds the current invocation has left, or undefined outside a route's handler. */
export function remainingTimeMs(): number | undefined {
  return invocations.getStore()?.();
}
