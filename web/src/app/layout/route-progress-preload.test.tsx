import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { renderShell } from '../../test/render-shell';

// The files of a worker share their modules (vitest.config.ts), and this file mocks
// ./progress-bar: the modules that import it may have been loaded for real by an earlier file, and
// would keep the mock for later ones. So this file imports fresh copies, and leaves none behind.
vi.hoisted(() => vi.resetModules());
afterAll(() => vi.resetModules());

// Notes when the bar's code is first imported, as its download would be.
const barCode = vi.hoisted(() => ({ imported: false }));
vi.mock('./progress-bar', async (importOriginal) => {
  barCode.imported = true;
  return importOriginal();
});

describe("RouteProgress's code", () => {
  it("is fetched at a person's first move over the page, not with the first page", async () => {
    // Prepare
    renderShell({ path: '/' });
    // What a layout change under a pointer at rest makes the browser fire: not a move.
    fireEvent.pointerOver(screen.getByRole('heading', { name: 'Home page' }));
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(barCode.imported).toBe(false);

    // Act
    fireEvent.pointerMove(screen.getByRole('heading', { name: 'Home page' }));

    // Assess
    await waitFor(() => expect(barCode.imported).toBe(true));
  });
});
