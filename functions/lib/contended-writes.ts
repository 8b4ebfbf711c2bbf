import { ServiceUnavailable } from './errors';

/**
 * A popular story or person sees transactions on the same item collide (TransactionConflict).
 * Such a write is tried this many times, each retry after a random pause from a range that
 * doubles up to 2 s ("full jitter"), so colliding callers spread out instead of colliding
 * again. The longest possible wait, about 17 s, stays under API Gateway's 29 s.
 */
export const CONTENDED_WRITE_ATTEMPTS = 14;

/**
 * What a caller gets when every attempt collided: a 503 saying so (nothing was changed, and a
 * later try can succeed), not a generic server error.
 */
export class TooBusy extends ServiceUnavailable {
  constructor(what: string) {
    super(`So many people are ${what} right now that yours did not get through. Nothing changed: please try again.`);
  }
}
const BASE_PAUSE_MS = 25;
const MAX_PAUSE_MS = 2_000;

export function pauseBeforeRetry(attempt: number): Promise<void> {
  const range = Math.min(MAX_PAUSE_MS, BASE_PAUSE_MS * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * range));
}
