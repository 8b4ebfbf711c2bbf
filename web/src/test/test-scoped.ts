import type { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter } from 'react-router';
import { onTestFinished } from 'vitest';

// What a test creates that would otherwise outlive it: the files of a worker share one window and
// one timer queue (shared-jsdom-environment.ts), so anything still listening or waiting keeps what
// it holds for the rest of the run.

/**
 * createMemoryRouter for one test, disposed when the test ends: a data router listens to the
 * window (pagehide) until it is.
 */
export function createTestRouter(...args: Parameters<typeof createMemoryRouter>): ReturnType<typeof createMemoryRouter> {
  const router = createMemoryRouter(...args);
  onTestFinished(() => router.dispose());
  return router;
}

/**
 * Empties the client when the test ends: a finished mutation (and a query under the app's gcTime)
 * waits five minutes on a timer before it is collected, and keeps the client with all its data.
 */
export function clearWhenTestEnds(queryClient: QueryClient): QueryClient {
  onTestFinished(() => {
    for (const mutation of queryClient.getMutationCache().getAll()) mutation.destroy();
    queryClient.clear();
  });
  return queryClient;
}
