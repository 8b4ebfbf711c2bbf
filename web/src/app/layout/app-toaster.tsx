import { useSyncExternalStore } from 'react';
import { usePageTheme } from '../../lib/theme';
import { getLoadedToasts, subscribeToToastsLoaded, TOAST_DURATION_MS, TOAST_LIMIT, TOAST_POSITION } from '../../lib/toast';

/**
 * Bottom-right, at most 3 at once, newest in front, auto-close after 4000 ms (see web/src/lib/toast.ts).
 * Renders nothing until the first toast has downloaded sonner; sonner then replays the toasts
 * raised meanwhile. In the page's theme, light or dark, as the reader set it.
 */
export function AppToaster() {
  const sonner = useSyncExternalStore(subscribeToToastsLoaded, getLoadedToasts, () => undefined);
  const theme = usePageTheme();
  if (!sonner) return null;
  return (
    <sonner.Toaster
      theme={theme}
      position={TOAST_POSITION}
      visibleToasts={TOAST_LIMIT}
      duration={TOAST_DURATION_MS}
      closeButton
      toastOptions={{ style: { fontFamily: 'var(--font-sans)' } }}
    />
  );
}
