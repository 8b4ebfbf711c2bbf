import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Loopback only, like every local service but the app: nothing else on the network reaches it. */
const LOOPBACK_HOST = '127.0.0.1';

export interface FixtureAnswer {
  status: number;
  body?: string;
  /** For a redirect: a path on the fixture server, host first, as every address there is. */
  location?: string;
  /** Sent as the ETag; a request whose If-None-Match names it is answered 304 Not Modified. */
  etag?: string;
}

export interface FixtureWeb {
  /** What SOURCE_FIXTURE_ORIGIN is set to. */
  origin: string;
  /** The paths asked for, in order, with the User-Agent and the If-None-Match each was asked with. */
  requests: { path: string; userAgent: string | undefined; ifNoneMatch?: string }[];
  /** The answers by path (`/<host><path>?<query>`); the test may change them. Anything else is a 404. */
  answers: Record<string, FixtureAnswer>;
  close(): Promise<void>;
}

/**
 * A server on loopback that answers for the web when publication sources are read through
 * SOURCE_FIXTURE_ORIGIN (functions/ranking/lib/sources/source-fetch.ts): the real fetch path,
 * offline. The tests serve their own answers; `LOCAL_SOURCES=fixtures npm start` serves
 * DEMO_SOURCE_ANSWERS.
 */
export async function startFixtureWeb(answers: Record<string, FixtureAnswer>): Promise<FixtureWeb> {
  const requests: FixtureWeb['requests'] = [];
  const web = { requests, answers } as FixtureWeb;
  const server = createServer((request, response) => {
    const ifNoneMatch = request.headers['if-none-match'];
    requests.push({ path: request.url ?? '', userAgent: request.headers['user-agent'], ...(ifNoneMatch ? { ifNoneMatch } : {}) });
    const answer = web.answers[request.url ?? ''] ?? { status: 404 };
    if (answer.etag !== undefined && ifNoneMatch === answer.etag) {
      response.writeHead(304, { etag: answer.etag }).end();
      return;
    }
    response.writeHead(answer.status, {
      ...(answer.location ? { location: answer.location } : {}),
      ...(answer.etag ? { etag: answer.etag } : {}),
    });
    response.end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK_HOST, resolve));
  web.origin = `http://${LOOPBACK_HOST}:${(server.address() as AddressInfo).port}`;
  web.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return web;
}

/** A recorded platform answer, written to the platform's documented shape (the tests read them too). */
export function sourceFixture(name: string): string {
  return readFileSync(new URL(`./source-fixtures/${name}`, import.meta.url), 'utf8');
}

const WORDPRESS_SITE = '/public-api.wordpress.com/rest/v1.1/sites/fieldnotesontea.wordpress.com';

/** Addresses the demo fixture web answers for, to paste into /suggest or an import file. */
export const DEMO_SOURCE_ADDRESSES = [
  'https://medium.com/ux-collective',
  'https://fieldnotesontea.wordpress.com/',
  'https://breadletters.wordpress.com/',
  'https://pulse-kitchen.example/feed.xml',
] as const;

/**
 * The demo's web, offline: two publications above the default follower floor (added at once),
 * a WordPress.com blog below it (a moderator's to review), and a plain feed (refused: it counts
 * no followers).
 */
export function demoSourceAnswers(): Record<string, FixtureAnswer> {
  const ok = (name: string): FixtureAnswer => ({ status: 200, body: sourceFixture(name) });
  return {
    '/medium.com/ux-collective?format=json': ok('medium-ux-collective.json.txt'),
    '/uxdesign.cc/feed': ok('medium-feed.xml'),
    [`${WORDPRESS_SITE}?fields=ID,name,description,URL,icon,subscribers_count,is_private`]: ok('wordpress-site.json'),
    [`${WORDPRESS_SITE}/posts?number=1&fields=date`]: ok('wordpress-posts.json'),
    ...wordpressBlog('breadletters.wordpress.com', {
      id: 7001,
      name: 'Bread Letters',
      subscribers: 420,
      lastPostAt: new Date(Date.now() - 2 * 86_400_000),
    }),
    '/pulse-kitchen.example/feed.xml': ok('blog-rss.xml'),
  };
}

/** The two answers WordPress.com's public API gives for a blog at `host` (e.g. tea.wordpress.com). */
export function wordpressBlog(
  host: string,
  blog: { id: number; name: string; subscribers: number; lastPostAt: Date },
): Record<string, FixtureAnswer> {
  const site = `/public-api.wordpress.com/rest/v1.1/sites/${host}`;
  const own = `https://${host.replace(/\.wordpress\.com$/, '')}.example`;
  return {
    [`${site}?fields=ID,name,description,URL,icon,subscribers_count,is_private`]: {
      status: 200,
      body: JSON.stringify({
        ID: blog.id,
        name: blog.name,
        description: `Notes from ${blog.name}`,
        URL: own,
        icon: null,
        subscribers_count: blog.subscribers,
        is_private: false,
      }),
    },
    [`${site}/posts?number=1&fields=date`]: {
      status: 200,
      body: JSON.stringify({ found: 1, posts: [{ date: blog.lastPostAt.toISOString() }] }),
    },
  };
}

/**
 * The two answers Medium gives for a publication at medium.com/`slug`: its JSON (behind the
 * anti-hijacking prefix, in the shape of medium-ux-collective.json.txt) and its RSS feed.
 */
export function mediumPublication(
  slug: string,
  publication: { id: string; name: string; followers: number; tags: readonly string[]; lastPostAt: Date },
): Record<string, FixtureAnswer> {
  const collection = {
    id: publication.id,
    name: publication.name,
    slug,
    tags: publication.tags,
    description: `Stories from ${publication.name}`,
    shortDescription: publication.name,
    image: null,
    metadata: { followerCount: publication.followers, activeAt: publication.lastPostAt.getTime() },
    domain: null,
    type: 'Collection',
  };
  const item = `<item><title>Latest from ${publication.name}</title><link>https://medium.com/${slug}/latest</link><pubDate>${publication.lastPostAt.toUTCString()}</pubDate></item>`;
  return {
    [`/medium.com/${slug}?format=json`]: {
      status: 200,
      body: `])}while(1);</x>${JSON.stringify({ success: true, payload: { collection, references: {} }, v: 3 })}`,
    },
    [`/medium.com/feed/${slug}`]: {
      status: 200,
      body: `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${publication.name} - Medium</title><link>https://medium.com/${slug}</link>${item}</channel></rss>`,
    },
  };
}
