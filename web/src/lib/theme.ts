import { useEffect, useSyncExternalStore } from 'react';
import { useUserSettings } from './user-settings';

export type ThemeChoice = 'system' | 'light' | 'dark';

/** Where this device remembers the choice; public/theme-boot.js reads it before the first paint. */
export const THEME_STORAGE_KEY = 'toppubs.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

const isChoice = (value: unknown): value is ThemeChoice => value === 'system' || value === 'light' || value === 'dark';

export function readThemeChoice(): ThemeChoice {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isChoice(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

export function resolveTheme(choice: ThemeChoice, deviceIsDark: boolean): 'light' | 'dark' {
  if (choice === 'system') return deviceIsDark ? 'dark' : 'light';
  return choice;
}

/** Shows `choice` now, without remembering it: a preview while the reader picks a theme. */
export function showTheme(choice: ThemeChoice): void {
  const theme = resolveTheme(choice, window.matchMedia?.(DARK_QUERY).matches ?? false);
  document.documentElement.dataset.theme = theme;
  // The browser's own chrome (a phone's address bar) follows the page.
  const background = getComputedStyle(document.documentElement).getPropertyValue('--color-bg').trim();
  if (background) document.querySelector('meta[name="theme-color"]')?.setAttribute('content', background);
}

/** Shows `choice` now and remembers it on this device for the next visit's first paint. */
export function applyTheme(choice: ThemeChoice): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage refused: the theme still applies to this page.
  }
  showTheme(choice);
}

/**
 * Keeps the page in the reader's theme: the account's choice once it is known (a new device
 * learns it at sign-in), and the device's own while the choice is 'system' and the device
 * switches between light and dark.
 */
export function useAccountTheme(): void {
  const { settings } = useUserSettings();
  const accountChoice = settings?.theme;

  useEffect(() => {
    if (accountChoice && accountChoice !== readThemeChoice()) applyTheme(accountChoice);
  }, [accountChoice]);

  useEffect(() => {
    const media = window.matchMedia?.(DARK_QUERY);
    if (!media) return undefined;
    const follow = () => {
      if (readThemeChoice() === 'system') applyTheme('system');
    };
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, []);
}

function subscribeToPageTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}

const pageTheme = (): 'light' | 'dark' => (document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light');

/** The theme the page shows now (set by theme-boot.js, then showTheme), for parts styled apart from it. */
export function usePageTheme(): 'light' | 'dark' {
  return useSyncExternalStore(subscribeToPageTheme, pageTheme, () => 'light');
}
