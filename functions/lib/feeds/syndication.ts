import { Feed } from 'feed';
import { APP_NAME } from '../../../shared/constants';
import { FEED_MEDIA_TYPES, type FeedFormat } from '../../../shared/feeds';
import { TextDocument } from '../http/responses';

/** One entry of a feed: a story, a publication entering a board, ... */
export interface SyndicationItem {
  /** Stable for good: readers tell new entries from seen ones by it (RSS guid, Atom id). */
  id: string;
  /** Plain text; escaped here. */
  title: string;
  /** Absolute: where a reader goes from the entry. */
  link: string;
  date: Date;
  /** Plain text; escaped here. */
  summary?: string | undefined;
}

/** What every feed says of itself; the addresses absolute (config.webOrigin). */
export interface Syndication {
  title: string;
  description: string;
  /** The feed's own public address in the format answered: its id and self link. */
  selfUrl: string;
  /** The page the feed follows. */
  siteUrl: string;
  /** When its content last changed: the newest item, or the data it was read from. */
  updated: Date;
  items: readonly SyndicationItem[];
}

/**
 * Characters XML 1.0 cannot carry at all (most C0 controls, lone surrogates, U+FFFE/FFFF):
 * a story title read from somebody's page may hold one, and one would make the whole feed
 * unreadable.
 */
// eslint-disable-next-line no-control-regex -- these are exactly the characters to drop
const NOT_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const xmlSafe = (text: string) => text.replace(NOT_XML, '');

/**
 * Item titles and summaries are HTML in both formats (RSS's description, Atom's type="html"
 * the `feed` package writes): plain text is escaped so `<b>` in a title reads as those three
 * characters, not as markup. The feed's own title is plain text and the package escapes it.
 */
const asHtml = (text: string) =>
  xmlSafe(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The feed as RSS 2.0 or Atom 1.0, written by the `feed` package. */
export function buildFeed(syndication: Syndication, format: FeedFormat): string {
  const feed = new Feed({
    id: syndication.selfUrl,
    title: xmlSafe(syndication.title),
    description: xmlSafe(syndication.description),
    link: syndication.siteUrl,
    updated: syndication.updated,
    // The default names the package's own site: nothing a reader needs.
    generator: false,
    feedLinks: { [format]: syndication.selfUrl },
    language: 'en',
    // Atom wants an author for the feed when its entries name none: the site speaks for them.
    author: { name: APP_NAME, link: syndication.siteUrl },
  });
  for (const item of syndication.items) {
    feed.addItem({
      id: item.id,
      guid: item.id,
      title: asHtml(item.title),
      link: item.link,
      date: item.date,
      ...(item.summary ? { description: asHtml(item.summary) } : {}),
    });
  }
  return format === 'rss' ? feed.rss2() : feed.atom1();
}

/**
 * The feed as a route's answer: its media type, and (through the request pipeline) the route's
 * cache-control, a strong ETag and 304 to a reader that already has it.
 */
export function feedDocument(syndication: Syndication, format: FeedFormat): TextDocument {
  return new TextDocument(`${FEED_MEDIA_TYPES[format]}; charset=utf-8`, buildFeed(syndication, format));
}
