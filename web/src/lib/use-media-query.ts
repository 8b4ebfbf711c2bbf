import { useCallback, useSyncExternalStore } from 'react';

/** Layout breakpoints (max-width side), as in web/src/styles/global.css. */
export const BREAKPOINTS = { sm: 991, xs: 767, xxs: 480, xxxs: 320 } as const;
export const SMALL_SCREEN_QUERY = `(max-width: ${BREAKPOINTS.xs}px)`;

/** Whether a CSS media query matches now; false where matchMedia does not exist. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window === 'undefined' || !window.matchMedia) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const getSnapshot = () => typeof window !== 'undefined' && !!window.matchMedia && window.matchMedia(query).matches;
  return useSyncExternalStore(subscribe, getSnapshot, () => false);
}
