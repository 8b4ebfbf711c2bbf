import type { Board, BoardKind, Topic, TopicCard } from '../../../../shared/schemas/ranking';
import { topicDisplayName } from '../../../../shared/topic-names';
import { byActivity, byFollowers, byGrowth, type SortKeys } from './standing';
import { MAX_LEADER_IMAGE_URL, type StandingColumns } from './standing-columns';

/** Rows per stored chunk. Equal to the largest page, so any page spans at most two chunks. */
export const RANK_CHUNK_SIZE = 100;
export const SEARCH_BOARD_ID = 'search';

export function boardId(board: Board): string {
  const base = `${board.kind}.${board.activeOnly ? 'active' : 'all'}`;
  return board.topic ? `${base}.topic.${board.topic}` : base;
}

/** Publications named on each topic's card on /topics. */
export const TOPIC_LEADERS = 3;
export { MAX_LEADER_IMAGE_URL };

export interface RankedColumns {
  /** boardId -> the publications' positions in the columns, in rank order. */
  boards: Map<string, Int32Array>;
  /** By total followers, each with its most followed publications (kept in the manifest for /topics). */
  topics: TopicCard[];
}

/** A topic's counts without its leaders: what boards and topic lists answer. */
export function topicCounts(topic: Topic & { leaders?: unknown }): Topic {
  const { leaders: _leaders, ...counts } = topic;
  return counts;
}

/** The name shown to people, as the web app shows it too: 'ux' -> 'UX', 'machine-learning' -> 'Machine Learning'. */
export const topicName = topicDisplayName;

/**
 * Every board from one pass over the publications: the three global orders are sorted once, and
 * each topic board is the global order filtered, so no topic is sorted again. A publication
 * whose followers are not known (a plain feed) is on the activity boards only: the other two
 * rank by a number it does not have. Boards come in a fixed order (each kind's overall, active
 * and topic boards), which the manifest's totals and the rank history keep.
 */
export function rankColumns(columns: StandingColumns): RankedColumns {
  const everyone = Array.from({ length: columns.size }, (_, index) => index);
  const counted = everyone.filter((index) => columns.followersKnown[index]);
  const left = columns.cursor();
  const right = columns.cursor();
  const by = (order: (a: SortKeys, b: SortKeys) => number) => (a: number, b: number) => {
    left.index = a;
    right.index = b;
    return order(left, right);
  };
  const orders: [BoardKind, number[]][] = [
    ['followers', counted.sort(by(byFollowers))],
    ['growth', [...counted].sort(by(byGrowth))],
    ['activity', everyone.sort(by(byActivity))],
  ];

  const building = new Map<string, number[]>();
  const push = (id: string, index: number) => {
    const rows = building.get(id);
    if (rows) rows.push(index);
    else building.set(id, [index]);
  };
  const { topicTags } = columns;
  for (const [kind, ordered] of orders) {
    const active = boardId({ kind, activeOnly: true, topic: null });
    building.set(boardId({ kind, activeOnly: false, topic: null }), ordered);
    building.set(active, []);
    const topicBoards = topicTags.map((topic) => ({
      all: boardId({ kind, activeOnly: false, topic }),
      active: boardId({ kind, activeOnly: true, topic }),
    }));
    for (const index of ordered) {
      const isActive = columns.isActive[index];
      if (isActive) push(active, index);
      for (const position of columns.topicsOf(index)) {
        const ids = topicBoards[position] as { all: string; active: string };
        push(ids.all, index);
        if (isActive) push(ids.active, index);
      }
    }
  }
  const boards = new Map<string, Int32Array>();
  for (const [id, rows] of building) boards.set(id, Int32Array.from(rows));
  return { boards, topics: topicCards(columns, boards) };
}

function topicCards(columns: StandingColumns, boards: ReadonlyMap<string, Int32Array>): TopicCard[] {
  const cards = new Map<number, TopicCard>();
  for (let index = 0; index < columns.size; index += 1) {
    for (const position of columns.topicsOf(index)) {
      const tag = columns.topicTags[position] as string;
      let card = cards.get(position);
      if (!card) {
        card = { tag, name: topicName(tag), publicationCount: 0, activeCount: 0, totalFollowers: 0, leaders: [] };
        cards.set(position, card);
      }
      card.publicationCount += 1;
      card.activeCount += columns.isActive[index] ? 1 : 0;
      card.totalFollowers += columns.followers[index] as number;
    }
  }
  // The topic's own most-followed board is already in order: its first rows lead the topic.
  for (const card of cards.values()) {
    const leaders = boards.get(boardId({ kind: 'followers', activeOnly: false, topic: card.tag })) ?? new Int32Array();
    card.leaders = [...leaders.subarray(0, TOPIC_LEADERS)].map((index) => ({
      slug: columns.slugs[index] as string,
      name: columns.names[index] as string,
      followers: columns.followers[index] as number,
      imageUrl: columns.leaderImageUrls[index] ?? null,
    }));
  }
  return [...cards.values()].sort((a, b) => b.totalFollowers - a.totalFollowers || (a.tag < b.tag ? -1 : 1));
}
