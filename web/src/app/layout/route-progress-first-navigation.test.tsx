import '../../test/dom-polyfills';
import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderShell } from '../../test/render-shell';

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
