import { act, screen } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { renderShell } from '../../test/render-shell';

// The files of a worker share their modules (vitest.config.ts), and this file mocks
// ./progress-bar: the modules that import it may have been loaded for real by an earlier file, and
// would keep the mock for later ones. So this file imports fresh copies, and leaves none behind.
vi.hoisted(() => vi.resetModules());
afterAll(() => vi.resetModules());

// The bar's own code never arrives in this file, as on a slow network before the page went idle.
vi.mock('./progress-bar', () => new Promise(() => undefined));

describe('RouteProgress before its code has arrived', () => {
  it('shows a plain bar at once on the first navigation', () => {
    // Prepare: a page that never arrives either
    const { router } = renderShell({ path: '/', pages: [{ path: 'slow', lazy: () => new Promise(() => undefined) }] });
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();

    // Act
    act(() => {
      void router.navigate('/slow');
    });

    // Assess
    expect(screen.getByRole('progressbar', { name: 'Loading the page' })).toBeInTheDocument();
  });
});
