import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { setMatchMedia } from '../test/dom-polyfills';
import { jane } from '../test/render-shell';
import { clearWhenTestEnds } from '../test/test-scoped';
import { setCurrentUser } from './current-user';
import { applyTheme, readThemeChoice, resolveTheme, THEME_STORAGE_KEY, useAccountTheme } from './theme';
import { setUserSettings } from './user-settings';

afterEach(() => {
  window.localStorage.clear();
  delete document.documentElement.dataset.theme;
  setMatchMedia(() => false);
});

function renderAccountTheme(settings: { theme?: 'system' | 'light' | 'dark' }) {
  const queryClient = clearWhenTestEnds(new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } }));
  setCurrentUser(queryClient, jane);
  setUserSettings(queryClient, jane.userId, settings);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  return renderHook(() => useAccountTheme(), { wrapper });
}

describe('the theme', () => {
  it('applies a choice at once and remembers it on this device, as theme-boot.js reads it', () => {
    // Act
    applyTheme('dark');

    // Assess
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(readThemeChoice()).toBe('dark');
  });

  it("follows the device for 'system', and keeps a fixed choice whatever the device says", () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it("takes the account's theme on a device that did not know it (a new sign-in)", async () => {
    // Prepare
    window.localStorage.setItem(THEME_STORAGE_KEY, 'light');

    // Act
    renderAccountTheme({ theme: 'dark' });

    // Assess
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    expect(readThemeChoice()).toBe('dark');
  });

  it("switches with the device while the choice is 'system'", async () => {
    // Prepare
    let deviceDark = false;
    const deviceChanged = setMatchMedia((query) => query === '(prefers-color-scheme: dark)' && deviceDark);
    applyTheme('system');
    renderAccountTheme({ theme: 'system' });
    expect(document.documentElement.dataset.theme).toBe('light');

    // Act
    deviceDark = true;
    deviceChanged();

    // Assess
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
  });

  it('reads an unknown stored value as system', () => {
    // Prepare
    window.localStorage.setItem(THEME_STORAGE_KEY, 'sepia');

    // Assess
    expect(readThemeChoice()).toBe('system');
  });
});
