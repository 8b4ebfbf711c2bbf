import { useRouteError } from 'react-router';
import { ErrorState } from '../../components/state-message';

/**
 * A page that failed to load, typically because a new deployment replaced its code: say so and
 * offer a reload instead of react-router's developer screen.
 */
export function RouteError() {
  const error = useRouteError();
  console.error('A page failed to load', error);
  return (
    <ErrorState
      title="This page could not be loaded"
      error={new Error('A newer version of the site may be available. Reloading usually fixes this.')}
      onRetry={() => window.location.reload()}
    />
  );
}
