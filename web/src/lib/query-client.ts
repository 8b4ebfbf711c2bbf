import { focusManager, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/**
 * Cache defaults: answers fresh for 2000 ms (dedupe), refetch on focus at most every 5000 ms,
 * and one retry after 1000 ms: a failing server shows its error state within about two
 * seconds, not after ten of placeholders; the state's Retry button is the person's.
 */
export const DEDUPE_MS = 2_000;
export const FOCUS_THROTTLE_MS = 5_000;
export const ERROR_RETRY_MS = 1_000;
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
