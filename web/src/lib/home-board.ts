import { useEffect } from 'react';
import type { UserSettings } from '@shared/schemas/account';
import { useCurrentUser } from './current-user';
import { useUserSettings } from './user-settings';

/** The board `/` opens on: most followed or fastest growing, every publication or active ones only. */
export interface HomeBoard {
  kind: 'followers' | 'growth';
  activeOnly: boolean;
}

export const DEFAULT_HOME_BOARD: HomeBoard = { kind: 'followers', activeOnly: false };
/** This device's last known choice of its signed-in person, so `/` opens on it before settings load. */
export const HOME_BOARD_STORAGE_KEY = 'toppubs.homeBoard';

export function homeBoardOf(settings: UserSettings): HomeBoard {
  return { kind: settings.defaultBoard ?? 'followers', activeOnly: settings.activeOnlyByDefault ?? false };
}

function readRemembered(): HomeBoard {
  try {
    const stored = JSON.parse(window.localStorage.getItem(HOME_BOARD_STORAGE_KEY) ?? 'null') as Partial<HomeBoard> | null;
    if (stored && (stored.kind === 'followers' || stored.kind === 'growth') && typeof stored.activeOnly === 'boolean') {
      return { kind: stored.kind, activeOnly: stored.activeOnly };
    }
  } catch {
    // Unreadable or refused storage: the default board.
  }
  return DEFAULT_HOME_BOARD;
}

/** At logout: the next person on this device starts from the default board. */
export function forgetHomeBoard(): void {
  try {
    window.localStorage.removeItem(HOME_BOARD_STORAGE_KEY);
  } catch {
    // Nothing was remembered.
  }
}

function remember(board: HomeBoard): void {
  try {
    window.localStorage.setItem(HOME_BOARD_STORAGE_KEY, JSON.stringify(board));
  } catch {
    // Storage refused: `/` waits for the settings next time.
  }
}

/**
 * The board `/` shows: a visitor's is the default; a signed-in person's is their settings' once
 * known, and until then the one this device last saw for them, so the page neither waits for
 * the settings nor switches boards under the reader.
 */
export function useHomeBoard(): HomeBoard {
  const { user, isPending } = useCurrentUser();
  const { settings } = useUserSettings();
  const board = settings ? homeBoardOf(settings) : undefined;
  const kind = board?.kind;
  const activeOnly = board?.activeOnly;

  useEffect(() => {
    if (kind !== undefined && activeOnly !== undefined) remember({ kind, activeOnly });
  }, [kind, activeOnly]);

  if (board) return board;
  if (!isPending && !user) return DEFAULT_HOME_BOARD;
  return readRemembered();
}
