import { type ButtonHTMLAttributes, type ReactNode, Suspense, useState } from 'react';
import { ChunkBoundary } from '../../components/chunk-boundary';

export interface DeferredMenuProps {
  /** The trigger as it looks before and while the menu's code loads (class, label, content). */
  trigger: ButtonHTMLAttributes<HTMLButtonElement>;
  /** Starts downloading the menu's code (on hover or focus, so a click finds it ready). */
  preload: () => Promise<unknown>;
  /** The real menu (a React.lazy component), opened at once when `openNow` is true. */
  children: (openNow: boolean) => ReactNode;
}

/**
 * A dropdown whose code (Radix, floating-ui) is downloaded on first use instead of with the
 * first page: until then a plain button stands in for the trigger. Activating it loads the menu
 * and opens it; from then on the Radix menu is rendered directly. Should the download fail, the
 * button stays and reloads the page when used.
 */
export function DeferredMenu({ trigger, preload, children }: DeferredMenuProps) {
  const [activated, setActivated] = useState(false);
  // A failed preload is not an error yet: opening the menu tries again and reports it.
  const warm = () => void preload().catch(() => undefined);
  const placeholder = (onClick?: () => void) => (
    <button
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      {...trigger}
      onClick={onClick}
      onPointerEnter={warm}
      onFocus={warm}
    />
  );
  if (!activated) return placeholder(() => setActivated(true));
  return (
    // If the menu's code cannot be downloaded (a newer version was deployed), the button reloads the page.
    <ChunkBoundary fallback={placeholder(() => window.location.reload())}>
      <Suspense fallback={placeholder()}>{children(true)}</Suspense>
    </ChunkBoundary>
  );
}
