import {
  boardFeedParamsSchema,
  boardFeedQuerySchema,
  feedDocumentSchema,
  siteStoriesFeedParamsSchema,
  storiesFeedParamsSchema,
  userStoriesFeedParamsSchema,
} from '../schemas/feeds';
import { defineRoute } from './define-route';

/**
 * As long as the boards' and the pages' answers: a feed reader polls every few minutes at most,
 * and the edge answers the rest (with a 304 to a reader that sends the ETag it has).
 */
const FEED_CACHE_SECONDS = 60;

/*
 * RSS 2.0 and Atom 1.0 feeds, served by the page renderer's app (functions/web-pages, which
 * reads the stories and the rankings) at their public addresses (shared/feeds.ts): the edge maps
 * /feeds/... here as it maps /sitemap.xml.
 */

export const showStoriesFeed = defineRoute({
  method: 'GET',
  path: '/api/i/feeds/stories/{feed}/{format}',
  access: 'public',
  handler: 'web-pages/show-stories-feed',
  summary:
    "The stories' hot or new feed (`feed`) as RSS 2.0 or Atom 1.0 (`format`): its first page as a visitor sees it, each story linking to the page shared. Served at /feeds/stories/{feed}.rss and .atom, with a strong ETag (304 to If-None-Match).",
  params: storiesFeedParamsSchema,
  response: feedDocumentSchema,
  cacheSeconds: FEED_CACHE_SECONDS,
});

export const showUserStoriesFeed = defineRoute({
  method: 'GET',
  path: '/api/i/feeds/user/{username}/{format}',
  access: 'public',
  handler: 'web-pages/show-user-stories-feed',
  summary:
    'The stories one person shared, newest first, as RSS 2.0 or Atom 1.0. Served at /feeds/@{username}.rss and .atom; 404 when nobody has that username.',
  params: userStoriesFeedParamsSchema,
  response: feedDocumentSchema,
  cacheSeconds: FEED_CACHE_SECONDS,
});

export const showBoardFeed = defineRoute({
  method: 'GET',
  path: '/api/i/feeds/board/{board}/{format}',
  access: 'public',
  handler: 'web-pages/show-board-feed',
  summary:
    "A ranking board's news as RSS 2.0 or Atom 1.0: on `most-followed` each publication that entered the top 100, on `fastest-growing` each week's 10 fastest growing, the latest 50, each linking to the publication's page; the whole site's board, or a topic's (`topic`). Served at /feeds/boards/{board}.rss and /feeds/topic/{tag}/{board}.rss (and .atom); 404 for an unknown topic.",
  params: boardFeedParamsSchema,
  query: boardFeedQuerySchema,
  response: feedDocumentSchema,
  cacheSeconds: FEED_CACHE_SECONDS,
});

export const showSiteStoriesFeed = defineRoute({
  method: 'GET',
  path: '/api/i/feeds/site/{host}/{format}',
  access: 'public',
  handler: 'web-pages/show-site-stories-feed',
  summary:
    'The stories shared from one site (its host, www. or not, in any case), newest first, as RSS 2.0 or Atom 1.0: the first page of its site page. Served at /feeds/site/{host}.rss and .atom; 400 for a host that is no site name, 404 for a site nobody shared a story from.',
  params: siteStoriesFeedParamsSchema,
  response: feedDocumentSchema,
  cacheSeconds: FEED_CACHE_SECONDS,
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order): a new route goes at the end, so no existing route moves to another stack.
 */
export const allFeedRoutes = {
  showStoriesFeed,
  showUserStoriesFeed,
  showBoardFeed,
  showSiteStoriesFeed,
};
