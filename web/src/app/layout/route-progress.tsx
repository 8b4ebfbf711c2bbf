import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigation } from 'react-router';
import styles from './route-progress.module.css';

const loadProgressBar = () => import('./progress-bar');
const ProgressBar = lazy(() => loadProgressBar().then((module) => ({ default: module.ProgressBar })));

/** After the first page is up and the browser has nothing better to do, fetch the bar's code. */
function preloadWhenIdle(): () => void {
  const preload = () => void loadProgressBar().catch(() => undefined);
  const { requestIdleCallback: onIdle, cancelIdleCallback: cancelIdle } = window;
  if (typeof onIdle === 'function' && typeof cancelIdle === 'function') {
    const handle = onIdle(preload, { timeout: 5_000 });
    return () => cancelIdle(handle);
  }
  const timer = setTimeout(preload, 2_000);
  return () => clearTimeout(timer);
}

/**
 * A thin bar at the top of the page while a route change loads (react-router navigation state).
 * The bar's code is not part of the first page: it is fetched once the page is idle, and a
 * navigation before that shows a plain bar of the same look until it arrives, so even the first
 * slow navigation is never silent.
 */
export function RouteProgress() {
  const busy = useNavigation().state !== 'idle';
  const [needed, setNeeded] = useState(busy);
  if (busy && !needed) setNeeded(true);
  useEffect(preloadWhenIdle, []);
  if (!needed) return null;
  return (
    <Suspense fallback={busy ? <div className={styles.fallback} role="progressbar" aria-label="Loading the page" /> : null}>
      <ProgressBar busy={busy} />
    </Suspense>
  );
}
