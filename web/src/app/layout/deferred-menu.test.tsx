import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ComponentType, lazy } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DeferredMenu } from './deferred-menu';

describe('DeferredMenu', () => {
  it('loads the real menu on first use and opens it at once', async () => {
    // Prepare
    const user = userEvent.setup();
    const load = vi.fn(() =>
      Promise.resolve({
        default: (({ open }: { open: boolean }) => <div role="menu" aria-label="Real menu" data-open={open} />) as ComponentType<{
          open: boolean;
        }>,
      }),
    );
    const RealMenu = lazy(load);
    render(
      <DeferredMenu trigger={{ 'aria-label': 'Things', children: 'Things' }} preload={() => Promise.resolve()}>
        {(openNow) => <RealMenu open={openNow} />}
      </DeferredMenu>,
    );
    expect(load).not.toHaveBeenCalled();

    // Act
    await user.click(screen.getByRole('button', { name: 'Things' }));

    // Assess
    expect(await screen.findByRole('menu', { name: 'Real menu' })).toHaveAttribute('data-open', 'true');
  });

  it('keeps the button and the page when the menu code cannot be downloaded', async () => {
    // Prepare
    const user = userEvent.setup();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Broken = lazy<ComponentType>(() => Promise.reject(new Error('Failed to fetch dynamically imported module')));
    render(
      <main>
        <h1>Page</h1>
        <DeferredMenu
          trigger={{ 'aria-label': 'Things', children: 'Things' }}
          preload={() => Promise.reject(new Error('offline'))}
        >
          {() => <Broken />}
        </DeferredMenu>
      </main>,
    );

    // Act
    await user.hover(screen.getByRole('button', { name: 'Things' }));
    await user.click(screen.getByRole('button', { name: 'Things' }));

    // Assess
    await vi.waitFor(() =>
      expect(error).toHaveBeenCalledWith('A part of the page failed to load', expect.any(Error), expect.anything()),
    );
    expect(screen.getByRole('heading', { name: 'Page' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Things' })).toBeInTheDocument();
    error.mockRestore();
  });
});
