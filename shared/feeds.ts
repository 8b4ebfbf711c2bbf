/**
 * The public addresses of the RSS and Atom feeds, for the pages that link them (the page
 * renderer and the web app) and the edge that maps them to their API routes
 * (infra/web-edge-policy.ts), so the three cannot drift.
 */

export const FEED_FORMATS = ['rss', 'atom'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** The media types a feed is served with and announced by in `<link rel="alternate">`. */
export const FEED_MEDIA_TYPES: Record<FeedFormat, string> = {
  rss: 'application/rss+xml',
  atom: 'application/atom+xml',
};

const FORMAT_NAMES: Record<FeedFormat, string> = { rss: 'RSS', atom: 'Atom' };

export const STORY_FEEDS = ['hot', 'new'] as const;
export type StoryFeed = (typeof STORY_FEEDS)[number];

/**
 * The ranking boards with a feed, by the name their address uses: on the most followed board a
 * publication entering its top is news; on the fastest growing, the week's fastest growing.
 */
export const BOARD_FEEDS = ['most-followed', 'fastest-growing'] as const;
export type BoardFeed = (typeof BOARD_FEEDS)[number];

export const storiesFeedPath = (feed: StoryFeed, format: FeedFormat) => `/feeds/stories/${feed}.${format}`;

export const userFeedPath = (username: string, format: FeedFormat) => `/feeds/@${encodeURIComponent(username)}.${format}`;

export const siteFeedPath = (host: string, format: FeedFormat) => `/feeds/site/${encodeURIComponent(host)}.${format}`;

export const boardFeedPath = (board: BoardFeed, topic: string | null, format: FeedFormat) =>
  topic ? `/feeds/topic/${encodeURIComponent(topic)}/${board}.${format}` : `/feeds/boards/${board}.${format}`;

/** One `<link rel="alternate">` of a page. */
export interface FeedLink {
  title: string;
  type: string;
  href: string;
}

/** A feed's links in both formats, RSS first (the one readers try first). */
export function feedLinks(title: string, pathOf: (format: FeedFormat) => string): FeedLink[] {
  return FEED_FORMATS.map((format) => ({
    title: `${title} (${FORMAT_NAMES[format]})`,
    type: FEED_MEDIA_TYPES[format],
    href: pathOf(format),
  }));
}

/** The most followed board's top whose newcomers its feed names: the top the notifications speak of. */
export const BOARD_FEED_TOP_PLACES = 100;
/** Publications a fastest growing board's feed names each week. */
export const BOARD_FEED_WEEKLY_FASTEST = 10;

export const storiesFeedTitle = (feed: StoryFeed, appName: string) => `${feed === 'hot' ? 'Hot' : 'New'} stories · ${appName}`;

export const siteFeedTitle = (host: string, appName: string) => `Stories from ${host} · ${appName}`;

export const userFeedTitle = (displayName: string, appName: string) => `Stories shared by ${displayName} · ${appName}`;

/** A board feed's name, the same on the feed, on its page's link and on the web app's. */
export function boardFeedTitle(board: BoardFeed, topicName: string | null, appName: string): string {
  const what =
    board === 'most-followed' ? `Entering the top ${BOARD_FEED_TOP_PLACES} most followed` : `Fastest growing of the week`;
  return `${what}${topicName ? ` in ${topicName}` : ''} · ${appName}`;
}
