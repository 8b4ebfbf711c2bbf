/**
 * A popular story or person sees transactions on the same item collide (TransactionConflict).
 * Such a write is tried this many times, each retry after a longer random pause, so colliding
 * callers spread out instead of colliding again.
 */
export const CONTENDED_WRITE_ATTEMPTS = 10;

export function pauseBeforeRetry(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** Math.min(attempt, 5)));
}
