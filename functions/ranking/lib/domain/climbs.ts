import type { BoardRanks } from '../../../lib/db/entities/rank-history';
import { compareBoards, parseBoardId } from './rank-history';

/** A board's top: entering it is news. */
export const TOP_PLACES = 100;
/** Places a publication must climb, from its lowest point since the last such news, to be news again. */
export const CLIMB_PLACES = 10;

/** What the ranking job remembers of a followed publication between runs. */
export interface WatchState {
  lastRanks: BoardRanks;
  /** boardId -> the rank a climb is measured from: the lowest since the last climb announced. */
  baselines: BoardRanks;
  wasActive: boolean;
}

export type ClimbEvent =
  | { type: 'entered-top'; boardId: string; rank: number }
  | { type: 'climbed'; boardId: string; from: number; to: number }
  | { type: 'active-again' };

/**
 * Compares a followed publication's ranks now with what the job remembered. The first look
 * (nothing remembered) only remembers: following a publication is not itself news. A climb is
 * measured from the lowest rank since the last climb was told, so slow steady climbing is told
 * once per 10 places, and falling back then climbing again is told again.
 */
export function detectClimbs(
  previous: WatchState | undefined,
  current: { ranks: BoardRanks; isActive: boolean },
): { events: ClimbEvent[]; next: WatchState } {
  if (!previous) {
    return { events: [], next: { lastRanks: current.ranks, baselines: current.ranks, wasActive: current.isActive } };
  }
  const events: ClimbEvent[] = [];
  const baselines: BoardRanks = {};
  for (const [boardId, rank] of Object.entries(current.ranks)) {
    // Any new post puts a publication at the top of an activity board: that is "active again"
    // (or not news at all), never a climb.
    if (parseBoardId(boardId)?.kind === 'activity') continue;
    const last = previous.lastRanks[boardId];
    const base = previous.baselines[boardId] ?? rank;
    const entered = last !== undefined && last > TOP_PLACES && rank <= TOP_PLACES;
    const climbed = base - rank >= CLIMB_PLACES;
    if (entered) events.push({ type: 'entered-top', boardId, rank });
    else if (climbed) events.push({ type: 'climbed', boardId, from: base, to: rank });
    baselines[boardId] = entered || climbed ? rank : Math.max(base, rank);
  }
  if (!previous.wasActive && current.isActive) events.push({ type: 'active-again' });
  return { events, next: { lastRanks: current.ranks, baselines, wasActive: current.isActive } };
}

function boardOrder(a: string, b: string): number {
  const boardA = parseBoardId(a);
  const boardB = parseBoardId(b);
  return boardA && boardB ? compareBoards(boardA, boardB) : 0;
}

/**
 * The news in one phrase that follows the publication's name: the biggest board first (a top
 * 100 before a climb), then how many other boards it rose on. Null when there is no news.
 */
export function describeClimbs(events: readonly ClimbEvent[], nameOfBoard: (boardId: string) => string): string | null {
  const ranked = events
    .filter((event): event is Exclude<ClimbEvent, { type: 'active-again' }> => event.type !== 'active-again')
    .sort((a, b) => boardOrder(a.boardId, b.boardId) || (a.type === b.type ? 0 : a.type === 'entered-top' ? -1 : 1));
  const activeAgain = events.some((event) => event.type === 'active-again');
  const [lead, ...rest] = ranked;
  let phrase: string | null = null;
  if (lead?.type === 'entered-top') phrase = `entered the top ${TOP_PLACES} of ${nameOfBoard(lead.boardId)} at #${lead.rank}`;
  if (lead?.type === 'climbed') phrase = `climbed ${lead.from - lead.to} places to #${lead.to} on ${nameOfBoard(lead.boardId)}`;
  if (phrase && rest.length > 0) phrase += `, and rose on ${rest.length} more ${rest.length === 1 ? 'board' : 'boards'}`;
  if (activeAgain) return phrase ? `is active again and ${phrase}` : 'is active again: it has a new post';
  return phrase;
}
