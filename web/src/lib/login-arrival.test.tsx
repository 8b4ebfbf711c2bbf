import '../test/dom-polyfills';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { jane, renderShell } from '../test/render-shell';
import { toast } from './toast';

afterEach(() => {
  act(() => toast.dismiss());
  window.history.replaceState(null, '', '/');
});

describe('arriving from a Google login', () => {
  it.each([
    ['#welcome', 'Welcome to TopPubs'],
    ['#logged-in', 'You are logged in'],
  ])('greets %s as the email login does, then takes the marker off the address', async (fragment, greeting) => {
    // Prepare: where the login's redirect landed
    window.history.replaceState(null, '', `/topics?page=2${fragment}`);

    // Act
    renderShell({ path: '/topics?page=2', user: jane });

    // Assess
    expect(await screen.findByText(greeting, {}, { timeout: 8_000 })).toBeInTheDocument();
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe('/topics?page=2');
  });

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
