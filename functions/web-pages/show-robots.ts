import * as webPageRoutes from '../../shared/routes/web-pages';
import { getConfig } from '../lib/config';
import { createHandler } from '../lib/http/create-handler';
import { TextDocument } from '../lib/http/responses';

const config = getConfig();

/**
 * What crawlers may read. The public pages are allowed by default; the API, the signed-in
 * pages and everything of a transfer (its package page holds people's files) are not. The
 * transfer app's sitemap is named here too: a sitemap outside the site's root is honoured
 * when robots.txt names it.
 */
const DISALLOWED = [
  '/api/',
  '/me',
  '/login',
  '/logout',
  '/authed/',
  '/following',
  '/notifications',
  '/settings',
  '/stories/following',
  '/stories/review',
  '/suggest',
  '/suggestions/',
  '/moderation',
  '/analytics',
  '/transfer/',
  '/transfers',
  '/subscription',
  '/checkout',
  '/cart/',
  '/store/',
  '/merchant',
  '/unsubscribe',
  '/search',
];

export const handler = createHandler(webPageRoutes.showRobots, async () => {
  const lines = [
    'User-agent: *',
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    // The transfer app's sitemap is under /api/, which the rule above closes to crawling.
    'Allow: /api/i/ourTransfers/sitemap/xml',
    '',
    `Sitemap: ${config.webOrigin}/sitemap.xml`,
    `Sitemap: ${config.webOrigin}/api/i/ourTransfers/sitemap/xml`,
    '',
  ];
  return new TextDocument('text/plain; charset=utf-8', lines.join('\n'));
});
