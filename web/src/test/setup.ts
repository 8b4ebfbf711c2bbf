import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy and waitFor give up after 1 s by default. These files run beside the integration and
// browser suites, with the two cores busy, where a render that takes 5 ms alone can take over a
// second: they failed that way under load while the app was right. Waiting longer changes no
// assertion, only how long a failing one takes to report.
configure({ asyncUtilTimeout: 4_000 });

afterEach(() => {
  cleanup();
});

// Each test starts as a new device: nothing remembered, no cookies.
afterEach(() => {
  window.localStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0`;
  }
});
