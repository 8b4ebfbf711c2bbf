import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderShell } from '../../test/render-shell';

function progressBar(): Element | null {
  return document.querySelector('.bprogress .bar');
}

describe('RouteProgress', () => {
  it('shows a progress bar while a route change loads and removes it when the page arrives', async () => {
    // Prepare: a page whose code arrives only when the test says so
    let arrive: () => void = () => {};
    const loaded = new Promise<void>((resolve) => (arrive = resolve));
    const { router } = renderShell({
      path: '/',
      pages: [{ path: 'slow', lazy: async () => (await loaded, { Component: () => <h1>Slow page</h1> }) }],
    });
    expect(progressBar()).toBeNull();

    // Act
    act(() => {
      void router.navigate('/slow');
    });

    // Assess
    await waitFor(() => expect(progressBar()).not.toBeNull());
    expect(screen.getByRole('heading', { name: 'Home page' })).toBeInTheDocument();

    // Act
    await act(async () => arrive());

    // Assess
    expect(await screen.findByRole('heading', { name: 'Slow page' })).toBeInTheDocument();
    await waitFor(() => expect(progressBar()).toBeNull(), { timeout: 8_000 });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});
