import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * Gives focus back to the control that opened a dialog once it closes (WCAG 2.4.3), for
 * Dialog.Content's onCloseAutoFocus. Radix does this only for its own Dialog.Trigger; our
 * dialogs open from anywhere (a context's open()), so the element that had focus when `open`
 * turned true is kept. A layout effect reads it before Radix moves focus into the dialog.
 */
export function useReturnFocus(open: boolean): (event: Event) => void {
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (!open) return;
    const active = document.activeElement;
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
  }, [open]);
  return useCallback((event: Event) => {
    const target = opener.current;
    opener.current = null;
    // An opener that went away (a menu item, a page left behind) leaves Radix's default.
    if (!target?.isConnected) return;
    event.preventDefault();
    target.focus();
  }, []);
}
