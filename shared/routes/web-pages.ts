import { pageQuerySchema, sitemapQuerySchema, textDocumentSchema } from '../schemas/web-pages';
import { defineRoute } from './define-route';

/** As long as the boards' API answers: a page holds a board, which changes only with a ranking run. */
const PAGE_CACHE_SECONDS = 60;

/**
 * The public pages as HTML, for crawlers and link previews. The edge (CloudFront in AWS, the
 * local server on one machine) sends the page paths here with the original path in `path`;
 * the browser never calls this address itself.
 */
export const renderPage = defineRoute({
  method: 'GET',
  path: '/api/i/web/page',
  access: 'public',
  handler: 'web-pages/render-page',
  summary:
    "A public page (boards, topics, profiles, stories, /about) as HTML: the web app's shell with the page's own title, description, canonical link and sharing tags, its main content as plain HTML and its screen data for the app to start from. Other paths get the shell, kept out of search indexes. Served at the page's own address (/topic/{tag}, /@{username}, ...), never called directly.",
  query: pageQuerySchema,
  response: textDocumentSchema,
  cacheSeconds: PAGE_CACHE_SECONDS,
});

export const showSitemap = defineRoute({
  method: 'GET',
  path: '/api/i/web/sitemap',
  access: 'public',
  handler: 'web-pages/show-sitemap',
  summary:
    "The site's sitemap (XML), served at /sitemap.xml: every board, every topic's boards, the topic pages, /about, /stories and every public profile with stories. Past 50,000 addresses it is a sitemap index of parts served at /sitemaps/{part}.xml (`part`), which also lists the transfer app's sitemap. 404 for a part past the last.",
  query: sitemapQuerySchema,
  response: textDocumentSchema,
  cacheSeconds: PAGE_CACHE_SECONDS,
});

export const showRobots = defineRoute({
  method: 'GET',
  path: '/api/i/web/robots',
  access: 'public',
  handler: 'web-pages/show-robots',
  summary:
    'robots.txt, served at /robots.txt: public pages allowed; the API, signed-in pages and transfer packages disallowed; the sitemap named.',
  response: textDocumentSchema,
  cacheSeconds: PAGE_CACHE_SECONDS,
});

/**
 * The group in listing order (the API reference, and CDK's stacks, which chunk an app's routes
 * in this order): a new route goes at the end, so no existing route moves to another stack.
 */
export const allWebPageRoutes = {
  renderPage,
  showSitemap,
  showRobots,
};
