import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { jane, renderShell } from '../test/render-shell';
import { ANALYTICS_EVENT_TYPE, type TrackedEvent } from './analytics';
import { toast } from './toast';

afterEach(() => {
  act(() => toast.dismiss());
  window.history.replaceState(null, '', '/');
});

describe('arriving from a Google or Twitter login', () => {
  it.each([
    ['#welcome', 'Welcome to TopPubs', 'google'],
    ['#logged-in', 'You are logged in', 'google'],
    ['#welcome-twitter', 'Welcome to TopPubs', 'twitter'],
    ['#logged-in-twitter', 'You are logged in', 'twitter'],
  ])(
    'greets %s as the email login does, counts the login by its provider, then takes the marker off the address',
    async (fragment, greeting, method) => {
      // Prepare: where the login's redirect landed
      window.history.replaceState(null, '', `/topics?page=2${fragment}`);

      const tracked: TrackedEvent[] = [];
      const record = (event: Event) => tracked.push((event as CustomEvent<TrackedEvent>).detail);
      window.addEventListener(ANALYTICS_EVENT_TYPE, record);

      // Act
      renderShell({ path: '/topics?page=2', user: jane });

      // Assess
      expect(await screen.findByText(greeting, {}, { timeout: 8_000 })).toBeInTheDocument();
      expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe('/topics?page=2');
      expect(tracked.filter((event) => event.name === 'Login')).toEqual([
        { name: 'Login', properties: { method, success: true } },
      ]);
      window.removeEventListener(ANALYTICS_EVENT_TYPE, record);
    },
  );

  it('says nothing on an ordinary visit', async () => {
    // Prepare
    window.history.replaceState(null, '', '/topics#section');

    // Act
    renderShell({ path: '/topics', user: jane });

    // Assess
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByText('You are logged in')).not.toBeInTheDocument();
    expect(window.location.hash).toBe('#section');
  });
});
