import { APP_NAME } from '../../../shared/constants';
import type { FeedLink } from '../../../shared/feeds';
import type { Seo } from '../../../shared/schemas/common';
import { escapeHtml, jsonForHtml } from './html';
import type { Shell } from './page-shell';

/**
 * One query's data as the web app caches it: the query key its page's hook uses and the API's
 * answer, already serialised (the same JSON the API answers). `infinite` for a paged list
 * (useInfiniteQuery), whose cache holds pages.
 */
export interface PageQuery {
  key: readonly unknown[];
  json: string;
  infinite?: boolean;
}

export interface RenderedPage {
  seo: Seo;
  /** The page's address without the origin, as it should be indexed. */
  canonicalPath: string;
  /** The page's main content, as HTML whose every user-given part is escaped. */
  content: string;
  queries: PageQuery[];
  /** The page's RSS and Atom feeds, announced in its head for readers that find feeds from a page. */
  feeds?: readonly FeedLink[];
}

/** The element id the web app reads its first screen's data from (web/src/main.tsx). */
export const PAGE_DATA_ELEMENT_ID = 'page-data';
/**
 * Marks the head tags the web app renders itself once it starts (page-meta.tsx), so it removes
 * these first and none is doubled.
 */
export const PAGE_META_ATTRIBUTE = 'data-page-meta';

const absolute = (origin: string, url: string) => (/^https?:/.test(url) ? url : `${origin}${url}`);

/**
 * The head tags of a page: the same title, description, keywords and sharing tags the web app's
 * PageMeta renders (so the page reads the same before and after it starts), plus its canonical
 * address and that it may be indexed.
 */
export function headTags(seo: Seo, canonicalUrl: string, origin: string, feeds: readonly FeedLink[] = []): string {
  const title = escapeHtml(seo.title || APP_NAME);
  const description = escapeHtml(seo.description);
  const image = escapeHtml(absolute(origin, seo.imageUrl));
  const url = escapeHtml(canonicalUrl);
  const mark = PAGE_META_ATTRIBUTE;
  return [
    `<title ${mark}>${title}</title>`,
    `<meta name="robots" content="index,follow" />`,
    `<meta ${mark} name="description" content="${description}" />`,
    ...(seo.keywords.length > 0 ? [`<meta ${mark} name="keywords" content="${escapeHtml(seo.keywords.join(', '))}" />`] : []),
    `<link ${mark} rel="canonical" href="${url}" />`,
    `<meta ${mark} property="og:type" content="website" />`,
    `<meta ${mark} property="og:site_name" content="${escapeHtml(APP_NAME)}" />`,
    `<meta ${mark} property="og:url" content="${url}" />`,
    `<meta ${mark} property="og:title" content="${title}" />`,
    `<meta ${mark} property="og:description" content="${description}" />`,
    `<meta ${mark} property="og:image" content="${image}" />`,
    `<meta ${mark} property="og:image:type" content="image/png" />`,
    `<meta ${mark} property="og:image:width" content="1500" />`,
    `<meta ${mark} property="og:image:height" content="1500" />`,
    `<meta ${mark} name="twitter:card" content="summary_large_image" />`,
    `<meta ${mark} name="twitter:title" content="${title}" />`,
    `<meta ${mark} name="twitter:description" content="${description}" />`,
    `<meta ${mark} name="twitter:image" content="${image}" />`,
    ...feeds.map(
      (feed) =>
        `<link ${mark} rel="alternate" type="${escapeHtml(feed.type)}" title="${escapeHtml(feed.title)}" href="${escapeHtml(absolute(origin, feed.href))}" />`,
    ),
  ].join('\n    ');
}

/** The page's queries as one JSON document, built from the answers' own JSON without parsing them again. */
export function pageDataJson(queries: readonly PageQuery[]): string {
  const entries = queries.map(
    (query) => `{"key":${JSON.stringify(query.key)},"infinite":${query.infinite === true},"data":${query.json}}`,
  );
  return `{"queries":[${entries.join(',')}]}`;
}

/** The whole document: the shell with the page's head tags, content and data put in. */
export function pageDocument(shell: Shell, page: RenderedPage, origin: string): string {
  const canonicalUrl = `${origin}${page.canonicalPath}`;
  return (
    `${shell.head}  ${headTags(page.seo, canonicalUrl, origin, page.feeds)}\n  ` +
    `${shell.body}${page.content}</div>\n    ` +
    `<script type="application/json" id="${PAGE_DATA_ELEMENT_ID}">${jsonForHtml(pageDataJson(page.queries))}</script>` +
    shell.tail.slice('</div>'.length)
  );
}
