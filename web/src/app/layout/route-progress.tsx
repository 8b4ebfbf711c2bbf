import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigation } from 'react-router';
import styles from './route-progress.module.css';

const loadProgressBar = () => import('./progress-bar');
const ProgressBar = lazy(() => loadProgressBar().then((module) => ({ default: module.ProgressBar })));

/**
 * What a person does before navigating: moves the pointer, touches the page, or uses the
 * keyboard. Not pointerover: the browser fires it whenever the page's layout moves an element
 * under a pointer at rest, so it came with every first page, not with a person's first move.
 */
const INTENT_EVENTS = ['pointermove', 'touchstart', 'keydown', 'focusin'] as const;

/**
 * Fetches the bar's code at the first sign of someone about to navigate, rather than with the
 * first page: a visitor who only reads the page never downloads it, and the pointer's first
 * move comes well before its first click.
 */
function preloadOnFirstIntent(): () => void {
  const stop = () => {
    for (const type of INTENT_EVENTS) window.removeEventListener(type, preload, true);
  };
  const preload = () => {
    stop();
    void loadProgressBar().catch(() => undefined);
  };
  for (const type of INTENT_EVENTS) window.addEventListener(type, preload, { capture: true, passive: true });
  return stop;
}

/**
 * A thin bar at the top of the page while a route change loads (react-router navigation state).
 * The bar's code is not part of the first page: it is fetched at the first sign of a person
 * about to navigate, and a navigation before it arrived shows a plain bar of the same look, so
 * even the first slow navigation is never silent.
 */
export function RouteProgress() {
  const busy = useNavigation().state !== 'idle';
  const [needed, setNeeded] = useState(busy);
  if (busy && !needed) setNeeded(true);
  useEffect(preloadOnFirstIntent, []);
  if (!needed) return null;
  return (
    <Suspense fallback={busy ? <div className={styles.fallback} role="progressbar" aria-label="Loading the page" /> : null}>
      <ProgressBar busy={busy} />
    </Suspense>
  );
}
