import { APP_NAME } from '@shared/constants';
import type { FeedLink } from '@shared/feeds';

export interface PageSeo {
  title?: string | undefined;
  description?: string | undefined;
  keywords?: string[] | undefined;
  imageUrl?: string | undefined;
}

const DEFAULT_DESCRIPTION = 'The most followed and fastest growing blog publications, updated hourly.';
const DEFAULT_IMAGE = '/og/toppubs-1500.png';

function absolute(url: string): string {
  return typeof window === 'undefined' || /^https?:/.test(url) ? url : new URL(url, window.location.origin).href;
}

/**
 * The page's canonical address, as the page renderer (functions/web-pages) writes it: no
 * trailing slash, and of the query only a topic board's `?active=true` and an archived month's `?topic=`.
 */
function canonicalUrl(): string | null {
  if (typeof window === 'undefined') return null;
  const { origin, pathname, search } = window.location;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const query = new URLSearchParams(search);
  const active = query.get('active') === 'true' && path.startsWith('/topic/');
  // An archived month's topic is its own page.
  const topic = path.startsWith('/archive/') ? query.get('topic') : null;
  return `${origin}${path}${active ? '?active=true' : topic ? `?topic=${encodeURIComponent(topic)}` : ''}`;
}

/**
 * Title, description, keywords and social-sharing tags from a page's SEO data, falling back to
 * the app name. React 19 hoists these elements into <head> wherever they are rendered. The page
 * renderer (functions/web-pages) writes the same tags into a public page's HTML, so a crawler
 * and the running app read the same ones. `feeds` are the page's RSS and Atom feeds
 * (shared/feeds.ts), announced for readers that find a feed from the page's address.
 */
export function PageMeta({ seo, feeds = [] }: { seo?: PageSeo | undefined; feeds?: readonly FeedLink[] }) {
  const title = seo?.title || APP_NAME;
  const description = seo?.description || DEFAULT_DESCRIPTION;
  const image = absolute(seo?.imageUrl || DEFAULT_IMAGE);
  const canonical = canonicalUrl();
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      {seo?.keywords?.length ? <meta name="keywords" content={seo.keywords.join(', ')} /> : null}
      {canonical ? <link rel="canonical" href={canonical} /> : null}
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={APP_NAME} />
      {canonical ? <meta property="og:url" content={canonical} /> : null}
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:image" content={image} />
      <meta property="og:image:type" content="image/png" />
      <meta property="og:image:width" content="1500" />
      <meta property="og:image:height" content="1500" />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={title} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={image} />
      {feeds.map((feed) => (
        <link key={feed.href} rel="alternate" type={feed.type} title={feed.title} href={absolute(feed.href)} />
      ))}
    </>
  );
}
