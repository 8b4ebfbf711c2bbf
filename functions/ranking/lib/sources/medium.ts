import { FEED_ACCEPT, newestFeedDate } from '../feed-document';
import {
  fetchSourceIfChanged,
  httpsUrl,
  type SourceAdapter,
  type SourceRef,
  type SourceSnapshot,
  SourceUnreadable,
} from './source-adapter';

/**
 * Medium's JSON answers start with this line so that a page including them as a script runs an
 * endless loop instead of leaking them (JSON hijacking protection); it is stripped before parsing.
 */
export const MEDIUM_JSON_PREFIX = '])}while(1);</x>';

const MEDIUM_HOST = 'medium.com';
const MEDIUM_IMAGE_BASE = 'https://cdn-images-1.medium.com/max/400/';
/** Path segments of medium.com that are Medium's own pages, never a publication. */
const NOT_PUBLICATIONS = new Set(['about', 'creators', 'feed', 'm', 'me', 'membership', 'plans', 'search', 'tag', 'topics']);

/** The part of a publication ("collection") Medium's `?format=json` answer carries that we read. */
interface MediumCollection {
  id?: unknown;
  name?: unknown;
  slug?: unknown;
  description?: unknown;
  shortDescription?: unknown;
  tags?: unknown;
  domain?: unknown;
  image?: { imageId?: unknown } | null;
  metadata?: { followerCount?: unknown } | null;
}

/** Parses Medium's JSON answer, prefix stripped; the collection, or why it is not one. */
export function parseMediumCollection(body: string): MediumCollection {
  const text = body.startsWith(MEDIUM_JSON_PREFIX) ? body.slice(MEDIUM_JSON_PREFIX.length) : body;
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new SourceUnreadable('Medium did not answer with JSON (a changed format, or a page instead of data)');
  }
  const payload = (document as { success?: unknown; payload?: { collection?: unknown } } | null)?.payload;
  const collection = payload?.collection;
  if (typeof collection !== 'object' || collection === null) {
    throw new SourceUnreadable('Medium answered, but not with a publication (a profile or a post has no follower count here)');
  }
  return collection as MediumCollection;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/**
 * Medium publications: `medium.com/{slug}` or a custom domain the publication's JSON names. The
 * publication's JSON gives its id (kept across renames and moves to a custom domain), name,
 * description, tags, image and follower count; its RSS feed gives the latest post.
 */
export const mediumAdapter: SourceAdapter = {
  platform: 'medium',

  recognise(url: URL): SourceRef | null {
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    if (host !== MEDIUM_HOST) return null;
    const [first] = url.pathname.split('/').filter(Boolean);
    // '@someone' is a person, not a publication; the spec's product ranks publications.
    if (!first || first.startsWith('@') || NOT_PUBLICATIONS.has(first.toLowerCase())) return null;
    if (!/^[A-Za-z0-9-]+$/.test(first)) return null;
    return { platform: 'medium', url: `https://${MEDIUM_HOST}/${first.toLowerCase()}` };
  },

  // The publication's JSON, then its feed, both on its own host (medium.com or its domain).
  requests: (ref) => ({ host: new URL(ref.url).host, perSnapshot: 2 }),

  async collect(ref: SourceRef, fetch, now, previous): Promise<SourceSnapshot> {
    const answer = await fetchSourceIfChanged(fetch, `${ref.url}?format=json`, 'application/json', previous);
    const publication = 'unchanged' in answer ? answer.unchanged : readPublication(ref, answer.body);
    const feedUrl = publication.feedUrl ?? `https://${MEDIUM_HOST}/feed/${new URL(ref.url).pathname.slice(1)}`;
    const feed = await fetchSourceIfChanged(fetch, feedUrl, FEED_ACCEPT, previous);
    const latestPostAt =
      'unchanged' in feed ? feed.unchanged.latestPostAt : ((await newestFeedDate(feed.body, now))?.toISOString() ?? null);
    return { ...publication, latestPostAt };
  },
};

/** Everything of a snapshot Medium's JSON gives: all but the latest post, which its feed gives. */
function readPublication(ref: SourceRef, body: string): Omit<SourceSnapshot, 'latestPostAt'> {
  const collection = parseMediumCollection(body);
  const id = text(collection.id);
  const name = text(collection.name);
  const slug = text(collection.slug);
  if (!id || !name || !slug) throw new SourceUnreadable(`Medium's answer for ${ref.url} has no id, name or slug`);
  const followers = collection.metadata?.followerCount;
  if (typeof followers !== 'number' || !Number.isInteger(followers) || followers < 0) {
    throw new SourceUnreadable(`Medium's answer for ${ref.url} has no follower count`);
  }
  const domain = text(collection.domain);
  // A publication that moved to its own domain is read there from now on; its id stays.
  const home = domain ? (httpsUrl(`https://${domain}/`) ?? `${ref.url}`) : `https://${MEDIUM_HOST}/${slug}`;
  const imageId = text(collection.image?.imageId);
  return {
    platform: 'medium',
    canonicalId: `medium:${id}`,
    name,
    url: home,
    description: text(collection.description) ?? text(collection.shortDescription),
    imageUrl: imageId ? `${MEDIUM_IMAGE_BASE}${encodeURIComponent(imageId)}` : null,
    topics: Array.isArray(collection.tags)
      ? collection.tags.flatMap((tag) => (typeof tag === 'string' && tag.trim() ? [tag.trim().toLowerCase()] : []))
      : [],
    followers,
    feedUrl: domain ? `https://${domain}/feed` : `https://${MEDIUM_HOST}/feed/${slug}`,
  };
}
