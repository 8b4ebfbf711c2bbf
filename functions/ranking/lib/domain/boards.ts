import type { Board, BoardKind, Topic, TopicCard } from '../../../../shared/schemas/ranking';
import { topicDisplayName } from '../../../../shared/topic-names';
import { byActivity, byFollowers, byGrowth, type Standing } from './standing';

/** Rows per stored chunk. Equal to the largest page, so any page spans at most two chunks. */
export const RANK_CHUNK_SIZE = 100;
export const SEARCH_BOARD_ID = 'search';

export function boardId(board: Board): string {
  const base = `${board.kind}.${board.activeOnly ? 'active' : 'all'}`;
  return board.topic ? `${base}.topic.${board.topic}` : base;
}

/** Publications named on each topic's card on /topics. */
export const TOPIC_LEADERS = 3;
/**
 * The leaders live in the manifest, one DynamoDB item (400 KB at most) read on every page view:
 * an image URL longer than this (a signed or data-laden one) is left out, and the card shows
 * initials instead, so each leader stays a few hundred bytes however its image is addressed.
 */
export const MAX_LEADER_IMAGE_URL = 300;

export interface RankedBoards {
  /** boardId -> standings in rank order. */
  boards: Map<string, Standing[]>;
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
 * Every board from one pass over the standings: the three global orders are sorted once, and
 * each topic board is the global order filtered, so no topic is sorted again. A publication
 * whose followers are not known (a plain feed) is on the activity boards only: the other two
 * rank by a number it does not have.
 */
export function rankBoards(standings: Standing[]): RankedBoards {
  const boards = new Map<string, Standing[]>();
  const topicStats = new Map<string, TopicCard>();
  const counted = standings.filter((standing) => standing.followersKnown);
  const orders: [BoardKind, Standing[]][] = [
    ['followers', counted.sort(byFollowers)],
    ['growth', [...counted].sort(byGrowth)],
    ['activity', [...standings].sort(byActivity)],
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
      const stats = topicStats.get(tag) ?? {
        tag,
        name: topicName(tag),
        publicationCount: 0,
        activeCount: 0,
        totalFollowers: 0,
        leaders: [],
      };
      stats.publicationCount += 1;
      stats.activeCount += standing.isActive ? 1 : 0;
      stats.totalFollowers += standing.followers;
      topicStats.set(tag, stats);
    }
  }
  // The topic's own most-followed board is already in order: its first rows lead the topic.
  for (const stats of topicStats.values()) {
    const leaders = boards.get(boardId({ kind: 'followers', activeOnly: false, topic: stats.tag })) ?? [];
    stats.leaders = leaders.slice(0, TOPIC_LEADERS).map(({ slug, name, followers, imageUrl }) => ({
      slug,
      name,
      followers,
      imageUrl: imageUrl && imageUrl.length <= MAX_LEADER_IMAGE_URL ? imageUrl : null,
    }));
  }
  const topics = [...topicStats.values()].sort((a, b) => b.totalFollowers - a.totalFollowers || (a.tag < b.tag ? -1 : 1));
  return { boards, topics };
}
