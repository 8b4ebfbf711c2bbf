import { decodeXmlText } from '../feed-document';
import {
  fetchSourceIfChanged,
  httpsUrl,
  type SourceAdapter,
  type SourceRef,
  type SourceSnapshot,
  SourceUnreadable,
} from './source-adapter';

const API_BASE = 'https://public-api.wordpress.com/rest/v1.1/sites';
const SITE_FIELDS = 'ID,name,description,URL,icon,subscribers_count,is_private';

/** The part of WordPress.com's `GET /rest/v1.1/sites/$site` answer we read. */
interface WordPressSite {
  ID?: unknown;
  name?: unknown;
  description?: unknown;
  URL?: unknown;
  icon?: { img?: unknown } | null;
  subscribers_count?: unknown;
  is_private?: unknown;
}

interface WordPressPosts {
  posts?: { date?: unknown }[];
}

function parseJson<T>(body: string, what: string): T {
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value === 'object' && value !== null) return value as T;
  } catch {
    // Reported below.
  }
  throw new SourceUnreadable(`WordPress.com did not answer ${what} with JSON`);
}

/** A text field; WordPress escapes them as HTML (`A merchant&#8217;s notebook`). */
function text(value: unknown): string | null {
  const decoded = typeof value === 'string' ? decodeXmlText(value).trim() : '';
  return decoded || null;
}

/**
 * Blogs hosted on WordPress.com (`{blog}.wordpress.com`), through its public REST API (v1.1), which
 * answers a public site's subscriber count without a token: chosen as the second platform with
 * public follower numbers because it hosts millions of blogs and documents the endpoint, where
 * Hashnode's GraphQL API became a paid feature in May 2026 and Substack publishes no API. The
 * site's numeric id is its identity (a blog keeps it when renamed or given its own domain); the
 * newest post comes from the same API.
 */
export const wordpressComAdapter: SourceAdapter = {
  platform: 'wordpress.com',

  recognise(url: URL): SourceRef | null {
    const host = url.hostname.toLowerCase();
    const match = /^([a-z0-9-]+)\.wordpress\.com$/.exec(host);
    // www, public-api, developer and the like are WordPress.com's own, not blogs.
    if (!match || ['www', 'public-api', 'developer', 'wordpress', 'en', 'subscribe'].includes(match[1] as string)) return null;
    return { platform: 'wordpress.com', url: `https://${host}/` };
  },

  // The site, then its newest post, both from WordPress.com's API whatever the blog's address.
  requests: () => ({ host: new URL(API_BASE).host, perSnapshot: 2 }),

  async collect(ref: SourceRef, fetch, now, previous): Promise<SourceSnapshot> {
    const site = encodeURIComponent(new URL(ref.url).hostname);
    const siteAnswer = await fetchSourceIfChanged(
      fetch,
      `${API_BASE}/${site}?fields=${SITE_FIELDS}`,
      'application/json',
      previous,
    );
    const blog = 'unchanged' in siteAnswer ? siteAnswer.unchanged : readSite(ref, siteAnswer.body);
    const postsAnswer = await fetchSourceIfChanged(
      fetch,
      `${API_BASE}/${site}/posts?number=1&fields=date`,
      'application/json',
      previous,
    );
    if ('unchanged' in postsAnswer) return { ...blog, latestPostAt: postsAnswer.unchanged.latestPostAt };
    const [newest] = parseJson<WordPressPosts>(postsAnswer.body, 'for the posts').posts ?? [];
    const newestTime = typeof newest?.date === 'string' ? Date.parse(newest.date) : Number.NaN;
    return {
      ...blog,
      latestPostAt: Number.isNaN(newestTime) ? null : new Date(Math.min(newestTime, now.getTime())).toISOString(),
    };
  },
};

/** Everything of a snapshot the site's answer gives: all but the latest post. */
function readSite(ref: SourceRef, body: string): Omit<SourceSnapshot, 'latestPostAt'> {
  const details = parseJson<WordPressSite>(body, 'for the site');
  const id = typeof details.ID === 'number' ? details.ID : null;
  const name = text(details.name);
  if (id === null || !name) throw new SourceUnreadable(`WordPress.com's answer for ${ref.url} has no site id or name`);
  if (details.is_private === true) throw new SourceUnreadable(`${ref.url} is a private site`);
  const subscribers = details.subscribers_count;
  if (typeof subscribers !== 'number' || !Number.isInteger(subscribers) || subscribers < 0) {
    throw new SourceUnreadable(`WordPress.com's answer for ${ref.url} has no subscriber count`);
  }
  const home = httpsUrl(details.URL) ?? ref.url;
  return {
    platform: 'wordpress.com',
    canonicalId: `wordpress.com:${id}`,
    name,
    url: home,
    description: text(details.description),
    imageUrl: httpsUrl(details.icon?.img),
    topics: [],
    followers: subscribers,
    feedUrl: new URL('feed/', home).href,
  };
}
