import { useEffect, useState } from 'react';

/** The top bar hides past 100 px of downward scroll; tracking debounced 300 ms. */
export const HIDE_ON_SCROLL_THRESHOLD_PX = 100;
export const SCROLL_DEBOUNCE_MS = 300;
export const TOP_BAR_HEIGHT_PX = 60;

export interface HideOnScrollState {
  /** Slid out of view: the last settled scroll went down and is past the threshold. */
  hidden: boolean;
  /** Scrolled past the bar's own height: the bar shows a bottom border. */
  scrolled: boolean;
}

/**
 * Hide when scrolling down, show when scrolling up. The direction is judged once scrolling
 * settles (trailing debounce), comparing with the position at the previous judgement; the
 * border follows the position at once, it is a cheap boolean that changes rarely.
 */
export function useHideOnScroll({
  threshold = HIDE_ON_SCROLL_THRESHOLD_PX,
  debounceMs = SCROLL_DEBOUNCE_MS,
  barHeight = TOP_BAR_HEIGHT_PX,
}: { threshold?: number; debounceMs?: number; barHeight?: number } = {}): HideOnScrollState {
  const [hidden, setHidden] = useState(false);
  const [scrolled, setScrolled] = useState(() => typeof window !== 'undefined' && window.scrollY > barHeight);

  useEffect(() => {
    let lastY = window.scrollY;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => {
      const y = Math.max(0, window.scrollY);
      if (y > lastY && y > threshold) setHidden(true);
      else if (y < lastY || y <= threshold) setHidden(false);
      lastY = y;
    };
    const onScroll = () => {
      setScrolled(window.scrollY > barHeight);
      clearTimeout(timer);
      timer = setTimeout(settle, debounceMs);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      clearTimeout(timer);
    };
  }, [threshold, debounceMs, barHeight]);

  return { hidden, scrolled };
}
