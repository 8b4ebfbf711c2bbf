import type { createBrowserRouter } from 'react-router';
import { track } from './track';

type Router = ReturnType<typeof createBrowserRouter>;
type RouterState = Router['state'];

/**
 * The route pattern a location matched (`/topic/:tag`), never the address itself: an address
 * can hold a token or a person's name.
 */
export function routePattern(matches: RouterState['matches']): string {
  const segments = matches.map((match) => match.route.path?.replace(/^\/+|\/+$/g, '')).filter((path) => Boolean(path));
  return `/${segments.join('/')}`;
}

/**
 * One `Page Viewed` per page shown: the first one once the first page is ready, then one at
 * every navigation that lands on another path (a change of the query alone, such as a search
 * box updating `?q=`, is the same page).
 */
export function trackPageViews(router: Pick<Router, 'state' | 'subscribe'>): () => void {
  let lastPath: string | null = null;
  const observe = (state: RouterState) => {
    if (!state.initialized || state.navigation.state !== 'idle') return;
    if (state.location.pathname === lastPath) return;
    lastPath = state.location.pathname;
    track('Page Viewed', { route: routePattern(state.matches) });
  };
  observe(router.state);
  return router.subscribe(observe);
}
