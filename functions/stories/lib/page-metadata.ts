import { Parser } from 'htmlparser2';

/** What a story card shows, as the page describes itself. Absent fields are undefined. */
export interface PageMetadata {
  title: string | undefined;
  description: string | undefined;
  imageUrl: string | undefined;
  siteName: string | undefined;
  author: string | undefined;
  /** ISO 8601. */
  publishedAt: string | undefined;
  /** The page's rel=canonical link, resolved against the page's URL. */
  canonicalUrl: string | undefined;
}

const LIMITS = { title: 300, description: 1_000, siteName: 120, author: 120, url: 2_048 } as const;

/** JSON-LD types that describe a written story. */
const ARTICLE_TYPES = new Set([
  'Article',
  'NewsArticle',
  'BlogPosting',
  'Report',
  'TechArticle',
  'ScholarlyArticle',
  'SocialMediaPosting',
]);

interface Collected {
  meta: Map<string, string>;
  title: string;
  canonical: string | undefined;
  jsonLd: string[];
}

/** Reads the page with a streaming HTML parser: meta tags, title, rel=canonical and JSON-LD blocks. */
function collect(html: string): Collected {
  const collected: Collected = { meta: new Map(), title: '', canonical: undefined, jsonLd: [] };
  let inTitle = false;
  let jsonLdText: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title') inTitle = true;
        else if (name === 'meta') {
          const key = (attributes.property ?? attributes.name ?? '').trim().toLowerCase();
          const content = attributes.content?.trim();
          // The first value wins, as crawlers read it.
          if (key && content && !collected.meta.has(key)) collected.meta.set(key, content);
        } else if (name === 'link' && collected.canonical === undefined) {
          const rel = (attributes.rel ?? '').toLowerCase().split(/\s+/);
          if (rel.includes('canonical') && attributes.href) collected.canonical = attributes.href.trim();
        } else if (name === 'script' && (attributes.type ?? '').trim().toLowerCase() === 'application/ld+json') {
          jsonLdText = '';
        }
      },
      ontext(text) {
        if (inTitle && !collected.title) collected.title = '';
        if (inTitle) collected.title += text;
        if (jsonLdText !== undefined) jsonLdText += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (name === 'script' && jsonLdText !== undefined) {
          collected.jsonLd.push(jsonLdText);
          jsonLdText = undefined;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return collected;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: Json | undefined): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every object in a JSON-LD document, @graph members included. */
function jsonLdObjects(blocks: readonly string[]): { [key: string]: Json }[] {
  const found: { [key: string]: Json }[] = [];
  const visit = (value: Json | undefined) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isObject(value)) {
      found.push(value);
      visit(value['@graph']);
    }
  };
  for (const block of blocks) {
    try {
      visit(JSON.parse(block) as Json);
    } catch {
      // A broken block is skipped; the meta tags may still describe the page.
    }
  }
  return found;
}

function typesOf(object: { [key: string]: Json }): string[] {
  const type = object['@type'];
  return (Array.isArray(type) ? type : [type]).filter((entry): entry is string => typeof entry === 'string');
}

/** A name from a JSON-LD value: a string, an object with a name, or the first of a list. */
function nameOf(value: Json | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(nameOf).find(Boolean);
  if (isObject(value) && typeof value.name === 'string') return value.name;
  return undefined;
}

function imageOf(value: Json | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(imageOf).find(Boolean);
  if (isObject(value) && typeof value.url === 'string') return value.url;
  return undefined;
}

const textOf = (value: Json | undefined) => (typeof value === 'string' ? value : undefined);

/** Whitespace collapsed, cut to `max` characters; empty becomes undefined. */
function clean(value: string | undefined, max: number): string | undefined {
  const collapsed = value?.replace(/\s+/g, ' ').trim();
  if (!collapsed) return undefined;
  return collapsed.length > max ? `${collapsed.slice(0, max - 1).trimEnd()}…` : collapsed;
}

/** An absolute http(s) URL resolved against the page, or undefined. */
function absoluteUrl(value: string | undefined, base: string): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.href.length <= LIMITS.url ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function isoDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** An author given as a profile URL (article:author often is) is not a name to show. */
const personName = (value: string | undefined) => (value && !/^https?:\/\//i.test(value) ? value : undefined);

/**
 * The story's card data from its HTML, in the order crawlers trust: Open Graph, then Twitter
 * cards, then JSON-LD, then plain HTML (title, meta description).
 */
export function readPageMetadata(html: string, pageUrl: string): PageMetadata {
  const { meta, title, canonical, jsonLd } = collect(html);
  const article = jsonLdObjects(jsonLd).find((object) => typesOf(object).some((type) => ARTICLE_TYPES.has(type)));
  const first = (...values: (string | undefined)[]) => values.find((value) => value !== undefined && value.trim() !== '');
  return {
    title: clean(
      first(meta.get('og:title'), meta.get('twitter:title'), textOf(article?.headline), textOf(article?.name), title),
      LIMITS.title,
    ),
    description: clean(
      first(meta.get('og:description'), meta.get('twitter:description'), textOf(article?.description), meta.get('description')),
      LIMITS.description,
    ),
    imageUrl: absoluteUrl(
      first(meta.get('og:image'), meta.get('og:image:url'), meta.get('twitter:image'), imageOf(article?.image)),
      pageUrl,
    ),
    siteName: clean(first(meta.get('og:site_name'), nameOf(article?.publisher), meta.get('application-name')), LIMITS.siteName),
    author: clean(
      first(nameOf(article?.author), personName(meta.get('author')), personName(meta.get('article:author'))),
      LIMITS.author,
    ),
    publishedAt: isoDate(first(meta.get('article:published_time'), textOf(article?.datePublished))),
    canonicalUrl: absoluteUrl(canonical, pageUrl),
  };
}
