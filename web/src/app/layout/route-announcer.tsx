import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/** A page whose title does not change (two pages of one list) is announced after this wait. */
export const ANNOUNCE_FALLBACK_MS = 1_000;

/**
 * Tells screen reader users that a link took them to another page, as a full page load would:
 * after each change of path, the new page's title is read out once it is set (pages set it when
 * their data arrives). The first page is not announced: the screen reader reads it on load.
 * Query changes on one page (search as you type) are not announced: they are not a new page.
 */
export function RouteAnnouncer() {
  const { pathname } = useLocation();
  const [message, setMessage] = useState('');
  const firstPath = useRef<string | null>(pathname);
  const lastTitle = useRef('');

  useEffect(() => {
    if (pathname === firstPath.current) {
      lastTitle.current = document.title;
      return;
    }
    firstPath.current = null;
    let done = false;
    const announce = () => {
      if (done) return;
      done = true;
      observer.disconnect();
      clearTimeout(fallback);
      lastTitle.current = document.title;
      setMessage(document.title);
    };
    const observer = new MutationObserver(() => {
      if (document.title !== lastTitle.current) announce();
    });
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    const fallback = setTimeout(announce, ANNOUNCE_FALLBACK_MS);
    // The new page may have set its title in the same render as the path change.
    if (document.title !== lastTitle.current) announce();
    return () => {
      done = true;
      observer.disconnect();
      clearTimeout(fallback);
    };
  }, [pathname]);

  return (
    <p className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      {message}
    </p>
  );
}
