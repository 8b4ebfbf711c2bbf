import type { Board, BoardKind, Topic } from '../../../../shared/schemas/ranking';
import { byFollowers, byGrowth, type Standing } from './standing';

/** Rows per stored chunk. Equal to the largest page, so any page spans at most two chunks. */
export const RANK_CHUNK_SIZE = 100;
export const SEARCH_BOARD_ID = 'search';

export function boardId(board: Board): string {
  const base = `${board.kind}.${board.activeOnly ? 'active' : 'all'}`;
  return board.topic ? `${base}.topic.${board.topic}` : base;
}

export interface RankedBoards {
  /** boardId -> standings in rank order. */
  boards: Map<string, Standing[]>;
  topics: Topic[];
}

/** Turns a tag into the name shown to people: 'machine-learning' -> 'Machine Learning'. */
export function topicName(tag: string): string {
  return tag
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * Every board from one pass over the standings: the two global orders are sorted once, and
 * each topic board is the global order filtered, so no topic is sorted again.
 */
export function rankBoards(standings: Standing[]): RankedBoards {
  const boards = new Map<string, Standing[]>();
  const topicStats = new Map<string, Topic>();
  const orders: [BoardKind, Standing[]][] = [
    ['followers', [...standings].sort(byFollowers)],
    ['growth', [...standings].sort(byGrowth)],
  ];

  const push = (id: string, standing: Standing) => {
    const rows = boards.get(id);
    if (rows) rows.push(standing);
    else boards.set(id, [standing]);
  };

  for (const [kind, ordered] of orders) {
    boards.set(boardId({ kind, activeOnly: false, topic: null }), ordered);
    boards.set(boardId({ kind, activeOnly: true, topic: null }), []);
    for (const standing of ordered) {
      if (standing.isActive) push(boardId({ kind, activeOnly: true, topic: null }), standing);
      for (const topic of standing.topics) {
        push(boardId({ kind, activeOnly: false, topic }), standing);
        if (standing.isActive) push(boardId({ kind, activeOnly: true, topic }), standing);
      }
    }
  }

  for (const standing of standings) {
    for (const tag of standing.topics) {
      const stats = topicStats.get(tag) ?? { tag, name: topicName(tag), publicationCount: 0, activeCount: 0, totalFollowers: 0 };
      stats.publicationCount += 1;
      stats.activeCount += standing.isActive ? 1 : 0;
      stats.totalFollowers += standing.followers;
      topicStats.set(tag, stats);
    }
  }
  const topics = [...topicStats.values()].sort((a, b) => b.totalFollowers - a.totalFollowers || (a.tag < b.tag ? -1 : 1));
  return { boards, topics };
}
