import { lazy, Suspense, useState } from 'react';
import { useNavigation } from 'react-router';

const ProgressBar = lazy(() => import('./progress-bar').then((module) => ({ default: module.ProgressBar })));

/**
 * A thin bar at the top of the page while a route change loads (react-router navigation state).
 * The bar's code is downloaded with the first route change, not with the first page.
 */
export function RouteProgress() {
  const busy = useNavigation().state !== 'idle';
  const [needed, setNeeded] = useState(busy);
  if (busy && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ProgressBar busy={busy} />
    </Suspense>
  );
}
