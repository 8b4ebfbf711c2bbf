import { describeFetchError } from '../../lib/http/safe-fetch';

/** A feed that could not be fetched or read; the message is safe to log. */
export class FeedError extends Error {
  override readonly name = 'FeedError';
}

/** The Accept header of a feed request: feeds first, any XML next, anything at all last. */
export const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1';

/** Feeds whose clocks run ahead are believed this far; later dates are treated as typos. */
const FUTURE_TOLERANCE_MS = 86_400_000;

interface Parsers {
  /** For post dates. */
  feed: { parse(xml: string): unknown };
  /** For the channel (title, links with their attributes). */
  channel: { parse(xml: string): unknown };
}

let parsers: Promise<Parsers> | undefined;

/** The parsers, made with the XML parser loaded by the first feed read (xml-parser.ts); a failed load is tried again. */
function loadParsers(): Promise<Parsers> {
  parsers ??= import('./xml-parser').then(
    ({ XMLParser }) => ({
      feed: new XMLParser({
        ignoreAttributes: true,
        // Dates must stay strings: '2024' would otherwise become a number.
        parseTagValue: false,
        // Only dates are read, so entities are never expanded (no entity-expansion blow-ups).
        processEntities: false,
        removeNSPrefix: true,
        isArray: (tagName) => tagName === 'item' || tagName === 'entry',
      }),
      channel: new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: '@_',
        parseTagValue: false,
        // No entity expansion here either: the five predefined ones and character references are decoded below.
        processEntities: false,
        removeNSPrefix: true,
        isArray: (tagName) => tagName === 'item' || tagName === 'entry' || tagName === 'link',
      }),
    }),
    (error: unknown) => {
      parsers = undefined;
      throw error;
    },
  );
  return parsers;
}

/** Elements that carry a post's date: RSS 2.0 pubDate, Dublin Core date (RSS 1.0), Atom. */
const DATE_FIELDS = ['pubDate', 'date', 'published', 'updated'] as const;

/**
 * The newest post date in an RSS 2.0, RSS 1.0 or Atom document; null when it lists no dated post.
 * Dates far in the future are ignored and slightly future ones capped at `now`.
 */
export async function newestFeedDate(xml: string, now: Date = new Date()): Promise<Date | null> {
  const posts = feedPosts(await parseXml(xml));
  let newest: number | undefined;
  for (const post of posts) {
    for (const field of DATE_FIELDS) {
      const value = post[field];
      const time = typeof value === 'string' ? Date.parse(value.trim()) : Number.NaN;
      if (Number.isNaN(time) || time > now.getTime() + FUTURE_TOLERANCE_MS) continue;
      newest = Math.max(newest ?? time, time);
    }
  }
  return newest === undefined ? null : new Date(Math.min(newest, now.getTime()));
}

async function parseXml(xml: string): Promise<Record<string, unknown>> {
  const { feed } = await loadParsers();
  try {
    const document: unknown = feed.parse(xml);
    if (isRecord(document)) return document;
  } catch (error) {
    throw new FeedError(`Not well-formed XML: ${describeFetchError(error)}`);
  }
  throw new FeedError('Not well-formed XML');
}

function feedPosts(document: Record<string, unknown>): Record<string, unknown>[] {
  const rss = document.rss;
  if (isRecord(rss)) return records(isRecord(rss.channel) ? rss.channel.item : undefined);
  // Atom: a feed with no entries is an empty string after parsing.
  if ('feed' in document) return records(isRecord(document.feed) ? document.feed.entry : undefined);
  if ('RDF' in document) return records(isRecord(document.RDF) ? document.RDF.item : undefined);
  throw new FeedError('Not an RSS or Atom feed');
}

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a feed says of its site, for a publication known only by its feed. */
export interface FeedChannel {
  title: string | null;
  /** The site's home page. */
  link: string | null;
  description: string | null;
  imageUrl: string | null;
}

const PREDEFINED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML's five predefined entities and numeric character references; any other entity stays as written. */
export function decodeXmlText(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, name: string) => {
    if (name[0] !== '#') return PREDEFINED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1]?.toLowerCase() === 'x' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The text of an element that may carry attributes (then the parser gives an object). */
function textOf(value: unknown): string | null {
  const raw = isRecord(value) ? value['#text'] : value;
  if (typeof raw !== 'string') return null;
  const decoded = decodeXmlText(raw.replace(/^<!\[CDATA\[|\]\]>$/g, '')).trim();
  return decoded || null;
}

/** Atom's site link: the `alternate` one (or one with no rel), not `self` (the feed itself). */
function atomSiteLink(links: unknown): string | null {
  for (const link of records(links)) {
    const rel = typeof link['@_rel'] === 'string' ? link['@_rel'] : 'alternate';
    if (rel === 'alternate' && typeof link['@_href'] === 'string') return link['@_href'];
  }
  return null;
}

/** The channel of an RSS 2.0, RSS 1.0 or Atom document: its title, site, description and image. */
export async function readFeedChannel(xml: string): Promise<FeedChannel> {
  const { channel } = await loadParsers();
  let document: unknown;
  try {
    document = channel.parse(xml);
  } catch (error) {
    throw new FeedError(`Not well-formed XML: ${describeFetchError(error)}`);
  }
  if (!isRecord(document)) throw new FeedError('Not well-formed XML');
  const rss = document.rss;
  if (isRecord(rss) && isRecord(rss.channel)) {
    const channel = rss.channel;
    const [link] = Array.isArray(channel.link) ? channel.link : [];
    return {
      title: textOf(channel.title),
      link: textOf(link),
      description: textOf(channel.description),
      imageUrl: isRecord(channel.image) ? textOf(channel.image.url) : null,
    };
  }
  if (isRecord(document.feed)) {
    const feed = document.feed;
    return {
      title: textOf(feed.title),
      link: atomSiteLink(feed.link),
      description: textOf(feed.subtitle),
      imageUrl: textOf(feed.logo) ?? textOf(feed.icon),
    };
  }
  if (isRecord(document.RDF) && isRecord(document.RDF.channel)) {
    const channel = document.RDF.channel;
    const [link] = Array.isArray(channel.link) ? channel.link : [];
    return {
      title: textOf(channel.title),
      link: textOf(link),
      description: textOf(channel.description),
      imageUrl: isRecord(document.RDF.image) ? textOf(document.RDF.image.url) : null,
    };
  }
  throw new FeedError('Not an RSS or Atom feed');
}
