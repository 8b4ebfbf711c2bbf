import '@testing-library/jest-dom/vitest';
import './dom-polyfills';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { getLoadedToasts } from '../lib/toast';
import { restoreDomPolyfills } from './dom-polyfills';

// findBy and waitFor give up after 1 s by default. On a loaded machine (these files ran beside
// the integration and browser suites once, with the two cores busy) a render that takes 5 ms alone
// can take over a second: they failed that way while the app was right. Waiting longer changes no
// assertion, only how long a failing one takes to report.
configure({ asyncUtilTimeout: 4_000 });

// The files of a worker share one window and one copy of the modules (vitest.config.ts), so each
// test leaves the page as a new one would be, after the file's own afterEach hooks. One hook, for
// the order: Vitest runs a suite's after hooks last registered first.
afterEach(() => {
  cleanup();

  // Stubs, spies and fake clocks a test did not undo itself.
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  restoreDomPolyfills();
  // sonner replays every toast still open to the next toaster that mounts: close them.
  getLoadedToasts()?.toast.dismiss();

  // The page: at /, untitled, nothing left in it or on it.
  window.history.replaceState(null, '', '/');
  document.head.querySelectorAll('title').forEach((title) => title.remove());
  document.body.replaceChildren();
  for (const element of [document.documentElement, document.body]) {
    for (const name of element.getAttributeNames()) element.removeAttribute(name);
  }

  // A new device: nothing remembered, no cookies.
  window.localStorage.clear();
  window.sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0`;
  }
});
