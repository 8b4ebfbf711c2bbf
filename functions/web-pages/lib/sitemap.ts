/** The sitemap protocol's limit of addresses in one sitemap (and of sitemaps in one index). */
export const MAX_SITEMAP_URLS = 50_000;

const XML_ESCAPES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };
const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => XML_ESCAPES[char] ?? char);

const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

function urlset(origin: string, paths: readonly string[]): string {
  const urls = paths.map((path) => `  <url><loc>${escapeXml(`${origin}${path}`)}</loc></url>\n`).join('');
  return `${XML_HEADER}<urlset xmlns="${NAMESPACE}">\n${urls}</urlset>\n`;
}

/** Where child sitemap `part` (from 1) is served. */
export const sitemapPartPath = (part: number) => `/sitemaps/${part}.xml`;

export interface SitemapInput {
  origin: string;
  /** Every public page's path, in the order they should be listed. */
  paths: readonly string[];
  /** Other sitemaps of the site (the transfer app's), listed in the index when there is one. */
  otherSitemaps: readonly string[];
  /** Addresses per sitemap; the protocol's 50,000 unless a test says otherwise. */
  maxUrls?: number;
}

/**
 * /sitemap.xml (part undefined) or a child sitemap. Up to the limit, /sitemap.xml is the one
 * sitemap of every page; past it, /sitemap.xml is an index of parts of at most the limit each,
 * followed by the other sitemaps. Null for a part that does not exist.
 */
export function buildSitemap(input: SitemapInput, part: number | undefined): string | null {
  const maxUrls = input.maxUrls ?? MAX_SITEMAP_URLS;
  const partCount = Math.ceil(input.paths.length / maxUrls);
  if (partCount <= 1) return part === undefined ? urlset(input.origin, input.paths) : null;
  if (part !== undefined) {
    if (part < 1 || part > partCount) return null;
    return urlset(input.origin, input.paths.slice((part - 1) * maxUrls, part * maxUrls));
  }
  const locations = [
    ...Array.from({ length: partCount }, (_, index) => `${input.origin}${sitemapPartPath(index + 1)}`),
    ...input.otherSitemaps.map((path) => `${input.origin}${path}`),
  ];
  const entries = locations.map((location) => `  <sitemap><loc>${escapeXml(location)}</loc></sitemap>\n`).join('');
  return `${XML_HEADER}<sitemapindex xmlns="${NAMESPACE}">\n${entries}</sitemapindex>\n`;
}
