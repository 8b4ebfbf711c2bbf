import { focusManager, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/**
 * Cache defaults, the spec's ("Data cache defaults"): answers fresh for 2000 ms (dedupe),
 * refetch on focus at most every 5000 ms, and a failed read retried once, 5000 ms later (error
 * retry): a server that failed for a moment gets time to recover before the page shows its error
 * state, whose Retry button is then the person's.
 */
export const DEDUPE_MS = 2_000;
export const FOCUS_THROTTLE_MS = 5_000;
/** The spec's error retry: how long the cache waits before asking again after a failed read. */
export const ERROR_RETRY_MS = 5_000;
export const MAX_RETRIES = 1;

let lastFocusRefetch = 0;

/** Refetch on focus at most once per FOCUS_THROTTLE_MS, however often the window regains focus. */
export function installFocusThrottle(now: () => number = Date.now): void {
  focusManager.setEventListener((handleFocus) => {
    const onFocus = () => {
      if (document.visibilityState !== 'visible') return;
      if (now() - lastFocusRefetch < FOCUS_THROTTLE_MS) return;
      lastFocusRefetch = now();
      handleFocus(true);
    };
    window.addEventListener('visibilitychange', onFocus, false);
    window.addEventListener('focus', onFocus, false);
    return () => {
      window.removeEventListener('visibilitychange', onFocus);
      window.removeEventListener('focus', onFocus);
    };
  });
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: DEDUPE_MS,
        retryDelay: ERROR_RETRY_MS,
        // A 4xx will not change on retry (unknown topic, bad paging): show it at once.
        retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < MAX_RETRIES,
        refetchOnWindowFocus: true,
      },
    },
  });
}
