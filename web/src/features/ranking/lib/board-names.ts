import type { BoardKind } from '../../../../../shared/schemas/ranking';

/** Each ranking's name, as the board controls and a publication's list of boards say it (and the API's page titles). */
export const BOARD_NAMES: Record<BoardKind, string> = {
  followers: 'Most followed',
  growth: 'Fastest growing',
  activity: 'Recently active',
};

/** The rankings in the order the board controls offer them. */
export const BOARD_KINDS = Object.keys(BOARD_NAMES) as BoardKind[];
