import { GROWTH_WINDOW_DAYS } from './constants';
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
