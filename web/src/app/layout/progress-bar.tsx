import { ProgressProvider, useProgress } from '@bprogress/react';
import { useEffect } from 'react';

/** A route change quicker than this shows no bar at all. */
export const PROGRESS_DELAY_MS = 100;

function Driver({ busy }: { busy: boolean }) {
  const { start, stop } = useProgress();
  useEffect(() => {
    if (!busy) return;
    start(0, PROGRESS_DELAY_MS);
    return () => stop();
  }, [busy, start, stop]);
  return null;
}

export function ProgressBar({ busy }: { busy: boolean }) {
  return (
    <ProgressProvider color="var(--color-brand)" height="3px" options={{ showSpinner: false }}>
      <Driver busy={busy} />
    </ProgressProvider>
  );
}
