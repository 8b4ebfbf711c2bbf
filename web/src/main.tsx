import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { removeRenderedHeadTags, seedQueryCache } from './app/page-data';
import { createRouter } from './app/router';
import { createQueryClient } from './lib/query-client';
import './styles/global.css';

/** Resolves once the router has matched the address and loaded the code of the page it opens on. */
function routerReady(router: ReturnType<typeof createRouter>): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * The page's HTML already shows its content (rendered by the page renderer). The app takes over
 * in one step: the screen's data from the page goes into the query cache, the router loads the
 * page's code, and only then does React render, so its first commit is the whole page in place
 * of the HTML, never a spinner or a refetch of what the page already holds.
 */
async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  const queryClient = createQueryClient();
  const router = createRouter();
  await routerReady(router);
  // Seeded once the page's code is in, so the data is as fresh as a just-fetched answer when the page mounts.
  seedQueryCache(queryClient);
  removeRenderedHeadTags();
  createRoot(container).render(
    <StrictMode>
      <App router={router} queryClient={queryClient} />
    </StrictMode>,
  );
}

void start();
