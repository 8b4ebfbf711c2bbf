import * as transferRoutes from '../../shared/routes/transfers';
import { getConfig } from '../lib/config';
import { createHandler } from '../lib/http/create-handler';
import { TextDocument } from '../lib/http/responses';

const config = getConfig();

/** The transfer app's public pages. Packages are private by nature, so none is listed. */
const PUBLIC_PATHS = ['/transfer'];

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char] ?? char);

export const handler = createHandler(transferRoutes.transferSitemap, async () => {
  const urls = PUBLIC_PATHS.map((path) => `  <url><loc>${escapeXml(`${config.webOrigin}${path}`)}</loc></url>`).join('\n');
  return new TextDocument(
    'application/xml; charset=utf-8',
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
  );
});
