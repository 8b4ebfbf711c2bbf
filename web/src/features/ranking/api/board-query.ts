import type { BoardFilter } from '../lib/paths';

/** Rows per board request: the first screen and every further page. */
export const BOARD_PAGE_SIZE = 50;

/** The query string shared by every board call: show/home, show/growth, show/activity and their load/… pages. */
export interface BoardQueryInput {
  active?: 'true';
  topic?: string;
  from?: number;
  limit: number;
}

export function toBoardQuery(filter: BoardFilter, from?: number): BoardQueryInput {
  return {
    ...(filter.activeOnly ? { active: 'true' as const } : {}),
    ...(filter.topic ? { topic: filter.topic } : {}),
    ...(from ? { from } : {}),
    limit: BOARD_PAGE_SIZE,
  };
}

/** ['ranking', endpoint name, query]: one shape for the six board endpoints, so they can be swapped. */
export type BoardQueryKey = readonly ['ranking', string, BoardQueryInput];

export function boardQueryKey(endpointName: string, query: BoardQueryInput): BoardQueryKey {
  return ['ranking', endpointName, query];
}
