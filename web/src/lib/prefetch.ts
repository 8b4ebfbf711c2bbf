/**
 * Link prefetch (the spec: "link prefetch margin 200 px"): once a link comes within 200 px of the
 * viewport, the code of the page it leads to starts loading, so a click rarely waits for a chunk.
 * One IntersectionObserver watches every link (components/prefetch-link.tsx registers them); the
 * router says how a path's page is fetched (setRoutePrefetcher, app/router.tsx), which keeps this
 * module free of the route table. The pages load their data with useQuery on arrival: the app has
 * no per-route loaders or query options to prefetch, so code is what is fetched ahead.
 *
 * Nothing is prefetched when the person asked to save data (Save-Data,
 * `navigator.connection.saveData`), for links to other hosts, or twice for the same path.
 */

/** The spec's link prefetch margin: how far outside the viewport a link starts its page's load. */
export const PREFETCH_MARGIN_PX = 200;

type RoutePrefetcher = (pathname: string) => void;

let prefetcher: RoutePrefetcher | undefined;
const prefetched = new Set<string>();
/** Each watched link and the path it leads to. */
const watched = new Map<Element, string>();
let observer: IntersectionObserver | undefined;
/** The IntersectionObserver class the observer was made with (tests put their own in and out). */
let observerClass: typeof IntersectionObserver | undefined;

/** How the page for a path is fetched: the router's (app/router.tsx). Forgets what was prefetched. */
export function setRoutePrefetcher(next: RoutePrefetcher | undefined): void {
  prefetcher = next;
  prefetched.clear();
}

/** Whether the person asked to save data (the Save-Data preference, where the browser tells it). */
export function savesData(): boolean {
  if (typeof navigator === 'undefined') return false;
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  return connection?.saveData === true;
}

/**
 * The path a link leads to when it is a page of this app on this host, else undefined (another
 * host, another scheme: mailto:, tel:...).
 */
export function samePagePath(href: string): string | undefined {
  if (typeof window === 'undefined') return undefined;
  let url: URL;
  try {
    url = new URL(href, window.location.href);
  } catch {
    return undefined;
  }
  return url.origin === window.location.origin ? url.pathname : undefined;
}

/** Starts loading the page behind a path, once per path, unless the person saves data. */
export function prefetchPath(pathname: string): void {
  if (!prefetcher || prefetched.has(pathname) || savesData()) return;
  prefetched.add(pathname);
  try {
    prefetcher(pathname);
  } catch (error) {
    // A prefetch is only a head start: the click loads the page anyway.
    console.warn('Prefetching a page failed', error);
  }
}

function onIntersect(entries: IntersectionObserverEntry[]): void {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    const pathname = watched.get(entry.target);
    unwatch(entry.target);
    if (pathname !== undefined) prefetchPath(pathname);
  }
}

function sharedObserver(): IntersectionObserver | undefined {
  const current = typeof IntersectionObserver === 'undefined' ? undefined : IntersectionObserver;
  if (!current) return undefined;
  if (!observer || observerClass !== current) {
    observer?.disconnect();
    watched.clear();
    observerClass = current;
    observer = new current(onIntersect, { rootMargin: `${PREFETCH_MARGIN_PX}px` });
  }
  return observer;
}

function unwatch(element: Element): void {
  if (!watched.delete(element)) return;
  observer?.unobserve(element);
}

/**
 * Prefetches the page behind `href` once `element` comes within PREFETCH_MARGIN_PX of the
 * viewport. Returns the function that stops watching it (the link left the page).
 */
export function prefetchWhenNearViewport(element: Element, href: string): () => void {
  const pathname = samePagePath(href);
  if (pathname === undefined || !prefetcher || prefetched.has(pathname) || savesData()) return () => {};
  const shared = sharedObserver();
  if (!shared) return () => {};
  watched.set(element, pathname);
  shared.observe(element);
  return () => unwatch(element);
}
