import { ACTIVE_WINDOW_DAYS, GROWTH_WINDOW_DAYS } from './constants';
import type { BoardKind } from './schemas/ranking';

/**
 * How the boards are named and explained, in the web app and in the pages rendered for crawlers
 * alike, so a page says the same before and after the app takes over.
 */

/** Each ranking's name, as the board controls and a publication's list of boards say it (and the API's page titles). */
export const BOARD_NAMES: Record<BoardKind, string> = {
  followers: 'Most followed',
  growth: 'Fastest growing',
  activity: 'Recently active',
};

/** What each ranking orders by, in the lede of a board over every topic and of a topic's board. */
export const BOARD_LEDES: Record<BoardKind, { all: string; topic: (name: string) => string }> = {
  followers: {
    all: 'Every publication we track, ranked by followers.',
    topic: (name) => `The most followed ${name} publications.`,
  },
  growth: {
    all: `Ranked by followers gained over the last ${GROWTH_WINDOW_DAYS} days.`,
    topic: (name) => `The ${name} publications that gained the most followers over the last ${GROWTH_WINDOW_DAYS} days.`,
  },
  activity: {
    all: 'Every publication we track, newest post first, including sites that publish a feed but no follower count.',
    topic: (name) => `The ${name} publications that posted most recently, newest post first.`,
  },
};

/**
 * A board's heading and one-line explanation: a topic's board when its name is given, else the
 * board over every topic.
 */
export function describeBoard(
  filter: { kind: BoardKind; activeOnly: boolean },
  topicName?: string,
): { heading: string; lede: string } {
  const ledes = BOARD_LEDES[filter.kind];
  const activeNote = filter.activeOnly ? ` Only publications that posted in the last ${ACTIVE_WINDOW_DAYS} days.` : '';
  if (topicName !== undefined) return { heading: topicName, lede: ledes.topic(topicName) + activeNote };
  const name = BOARD_NAMES[filter.kind];
  // "Recently active active publications" would stutter: that board says "active only" after it instead.
  const heading = !filter.activeOnly
    ? `${name} publications`
    : filter.kind === 'activity'
      ? `${name} publications, active only`
      : `${name} active publications`;
  return { heading, lede: ledes.all + activeNote };
}
