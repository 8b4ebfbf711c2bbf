import * as webPageRoutes from '../../shared/routes/web-pages';
import { getConfig } from '../lib/config';
import { createHandler } from '../lib/http/create-handler';
import { TextDocument } from '../lib/http/responses';
import { logger } from '../lib/logger';
import { pageDocument, type RenderedPage } from './lib/page-document';
import { getShell, type Shell } from './lib/page-shell';
import { MISSING, renderPublicPage } from './lib/pages';

const config = getConfig();
const HTML = 'text/html; charset=utf-8';

const UNAVAILABLE = 'unavailable' as const;

/** A page's whole document, kept with the page while the shell it was put in is current. */
const documents = new WeakMap<RenderedPage, { shell: Shell; html: string }>();

function documentOf(shell: Shell, page: RenderedPage): string {
  const kept = documents.get(page);
  if (kept?.shell === shell) return kept.html;
  const html = pageDocument(shell, page, config.webOrigin);
  documents.set(page, { shell, html });
  return html;
}

export const handler = createHandler(webPageRoutes.renderPage, async ({ query }) => {
  const [{ shell, html }, page] = await Promise.all([
    getShell(),
    renderPublicPage(query.path, query.active === 'true').catch((error: unknown) => {
      logger.warn('Could not render a page; answering the app shell', { path: query.path, error: error as Error });
      return UNAVAILABLE;
    }),
  ]);
  // The shell as the bucket serves it (noindex), so the app starts and shows the page's state
  // itself. A page that is not there says so to crawlers; one that could not be read right now
  // asks them to come back (Rankings still being computed, a busy table). Neither is cached.
  if (page === null) return new TextDocument(HTML, html);
  if (page === MISSING) return new TextDocument(HTML, html, 404);
  if (page === UNAVAILABLE) return new TextDocument(HTML, html, 503);
  return new TextDocument(HTML, documentOf(shell, page));
});
