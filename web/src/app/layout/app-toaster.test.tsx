import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadToasts, toast } from '../../lib/toast';
import { AppToaster } from './app-toaster';

function toastItems(): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>('[data-sonner-toast]'));
}

/** What a user sees: sonner keeps queued toasts in the list but hides all but the front three. */
function visibleToastTexts(): string[] {
  return toastItems()
    .filter((item) => item.dataset.visible === 'true' && item.dataset.removed !== 'true')
    .map((item) => item.querySelector('[data-title]')?.textContent ?? '');
}

describe('AppToaster before any toast', () => {
  it('downloads the toaster with the first toast and shows that toast', async () => {
    // Prepare: nothing has raised a toast in this file yet
    render(<AppToaster />);
    expect(document.querySelector('[data-sonner-toaster]')).toBeNull();

    // Act
    act(() => {
      toast.success('Copied');
    });

    // Assess
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    expect(document.querySelector('ol[data-sonner-toaster]')).toHaveAttribute('data-x-position', 'right');
    act(() => toast.dismiss());
  });
});

describe('AppToaster', () => {
  // sonner is downloaded with the first toast; fetch it before the clock is faked.
  beforeAll(async () => {
    await loadToasts();
  });
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
  });
  afterEach(() => {
    act(() => toast.dismiss());
    act(() => vi.runOnlyPendingTimers());
    vi.useRealTimers();
  });

  it('sits bottom-right and shows at most 3 of 5 toasts, the newest in front', () => {
    // Prepare
    render(<AppToaster />);

    // Act
    act(() => {
      for (const n of [1, 2, 3, 4, 5]) toast(`Toast ${n}`);
    });
    act(() => vi.advanceTimersByTime(50));

    // Assess
    expect(screen.getByRole('region', { name: /Notifications/ }).querySelector('ol')).toHaveAttribute(
      'data-y-position',
      'bottom',
    );
    expect(document.querySelector('ol[data-sonner-toaster]')).toHaveAttribute('data-x-position', 'right');
    expect(visibleToastTexts()).toEqual(['Toast 5', 'Toast 4', 'Toast 3']);
    expect(toastItems()[0]).toHaveAttribute('data-front', 'true');
    expect(toastItems()[0]).toHaveTextContent('Toast 5');
  });

  it('closes a toast by itself after 4000 ms', () => {
    // Prepare
    render(<AppToaster />);
    act(() => {
      toast('Saved');
    });
    act(() => vi.advanceTimersByTime(50));
    expect(visibleToastTexts()).toEqual(['Saved']);

    // Act
    act(() => vi.advanceTimersByTime(3_900));

    // Assess: still there just before 4000 ms
    expect(visibleToastTexts()).toEqual(['Saved']);

    // Act
    act(() => vi.advanceTimersByTime(500));

    // Assess
    expect(visibleToastTexts()).toEqual([]);
  });
});

describe('AppToaster and the theme', () => {
  beforeAll(async () => {
    await loadToasts();
  });
  afterEach(() => {
    act(() => toast.dismiss());
  });

  it('shows toasts in the dark theme when the page is dark, and follows a change of theme', async () => {
    // Prepare: the page is dark, as theme-boot.js sets it for a reader who chose Dark
    document.documentElement.dataset.theme = 'dark';
    render(<AppToaster />);

    // Act
    act(() => {
      toast.success('Settings saved');
    });

    // Assess
    expect(await screen.findByText('Settings saved')).toBeInTheDocument();
    const toaster = document.querySelector('ol[data-sonner-toaster]');
    expect(toaster).toHaveAttribute('data-sonner-theme', 'dark');

    // Act: the reader picks Light
    document.documentElement.dataset.theme = 'light';

    // Assess
    await waitFor(() => expect(document.querySelector('ol[data-sonner-toaster]')).toHaveAttribute('data-sonner-theme', 'light'));
  });
});
