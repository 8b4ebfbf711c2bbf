import type { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppProviders } from './providers';
import { createRouter } from './router';

/**
 * The app. main.tsx passes the router it has already started (its first page's code loaded) and
 * the query cache it has filled from the page's HTML, so the first render is the whole page.
 */
export function App({
  router: given,
  queryClient,
}: { router?: ReturnType<typeof createRouter>; queryClient?: QueryClient } = {}) {
  const [router] = useState(() => given ?? createRouter());
  return (
    <AppProviders {...(queryClient ? { queryClient } : {})}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
