import { BOARD_NAMES } from '@shared/board-texts';
import type { BoardKind } from '@shared/schemas/ranking';

export { BOARD_NAMES };

/** The rankings in the order the board controls offer them. */
export const BOARD_KINDS = Object.keys(BOARD_NAMES) as BoardKind[];
