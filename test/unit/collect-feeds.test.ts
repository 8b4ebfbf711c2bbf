import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectFeeds, type FeedPublication, type FeedStore } from '../../functions/ranking/collect-feeds';

const NOW = new Date('2025-01-20T12:00:00Z');

const FEEDS: Record<string, string> = {
  '/rss': `<rss version="2.0"><channel><title>R</title>
    <item><pubDate>Fri, 17 Jan 2025 08:00:00 GMT</pubDate></item>
    <item><pubDate>Mon, 13 Jan 2025 08:00:00 GMT</pubDate></item></channel></rss>`,
  '/atom': `<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
    <entry><updated>2025-01-18T09:00:00Z</updated></entry></feed>`,
  '/old': `<rss version="2.0"><channel><item><pubDate>Wed, 01 Jan 2020 00:00:00 GMT</pubDate></item></channel></rss>`,
  '/garbage': '<html><body>We moved!</body></html>',
};

/** Serves the feeds above plus misbehaving endpoints, and counts requests per path. */
function startFeedServer(): Promise<{ server: Server; base: string; hits: Map<string, number> }> {
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const feed = FEEDS[path];
    if (feed) {
      response.writeHead(200, { 'content-type': 'application/xml' }).end(feed);
    } else if (path === '/moved') {
      response.writeHead(301, { location: '/atom' }).end();
    } else if (path === '/slow') {
      // Answers long after the collector's deadline.
      setTimeout(() => response.writeHead(200).end(FEEDS['/rss']), 3_000).unref();
    } else if (path === '/huge') {
      // No content-length: the cap must hold while streaming.
      response.writeHead(200, { 'content-type': 'application/xml' });
      response.write('<rss version="2.0"><channel>');
      response.end('<item><title>x</title></item>'.repeat(10_000));
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, base: `http://127.0.0.1:${port}`, hits });
    });
  });
}

/** An in-memory store with the same contract as the db one: writes only over what was listed. */
function memoryStore(publications: FeedPublication[]): FeedStore & { stored: Map<string, string | undefined> } {
  const stored = new Map(publications.map((publication) => [publication.slug, publication.latestPostAt]));
  return {
    stored,
    listFeedPublications: async () =>
      publications.map((publication) => ({ ...publication, latestPostAt: stored.get(publication.slug) })),
    updateLatestPost: async (publication, latestPostAt) => {
      if (stored.get(publication.slug) !== publication.latestPostAt) return false;
      stored.set(publication.slug, latestPostAt);
      return true;
    },
  };
}

describe('collectFeeds', () => {
  let feeds: Awaited<ReturnType<typeof startFeedServer>>;

  beforeAll(async () => {
    feeds = await startFeedServer();
  });

  afterAll(async () => {
    feeds.server.closeAllConnections();
    await new Promise((resolve) => feeds.server.close(resolve));
  });

  function publication(slug: string, path: string, latestPostAt?: string): FeedPublication {
    return { slug, feedUrl: `${feeds.base}${path}`, latestPostAt };
  }

  it('moves latestPostAt forward from RSS, Atom and redirected feeds and reports broken ones without stopping', async () => {
    // Prepare
    const store = memoryStore([
      publication('rss-pub', '/rss', '2025-01-01T00:00:00.000Z'),
      publication('atom-pub', '/atom'),
      publication('moved-pub', '/moved'),
      publication('newer-than-feed', '/old', '2024-06-01T00:00:00.000Z'),
      publication('slow-pub', '/slow', '2024-01-01T00:00:00.000Z'),
      publication('garbage-pub', '/garbage'),
      publication('huge-pub', '/huge'),
      publication('missing-pub', '/missing'),
    ]);

    // Act
    const started = Date.now();
    const result = await collectFeeds({
      store,
      now: NOW,
      allowPrivateAddresses: true,
      timeoutMs: 500,
      maxBytes: 64 * 1024,
      concurrency: 3,
    });

    // Assess
    expect(Date.now() - started).toBeLessThan(2_500);
    expect({ checked: result.checked, updated: result.updated, failed: result.failed }).toEqual({
      checked: 8,
      updated: 3,
      failed: 4,
    });
    expect(Object.fromEntries(store.stored)).toEqual({
      'rss-pub': '2025-01-17T08:00:00.000Z',
      'atom-pub': '2025-01-18T09:00:00.000Z',
      'moved-pub': '2025-01-18T09:00:00.000Z',
      'newer-than-feed': '2024-06-01T00:00:00.000Z',
      'slow-pub': '2024-01-01T00:00:00.000Z',
      'garbage-pub': undefined,
      'huge-pub': undefined,
      'missing-pub': undefined,
    });
    const reasons = Object.fromEntries(result.failures.map((failure) => [failure.slug, failure.reason]));
    expect(reasons).toEqual({
      'slow-pub': expect.stringMatching(/timed out/i),
      'garbage-pub': expect.stringMatching(/not an rss or atom feed/i),
      'huge-pub': expect.stringMatching(/larger than/i),
      'missing-pub': 'HTTP 404',
    });
  });

  it('changes nothing on a second run over unchanged feeds', async () => {
    // Prepare
    const store = memoryStore([publication('rss-pub', '/rss'), publication('atom-pub', '/atom')]);
    await collectFeeds({ store, now: NOW, allowPrivateAddresses: true });

    // Act
    const second = await collectFeeds({ store, now: NOW, allowPrivateAddresses: true });

    // Assess
    expect(second).toMatchObject({ checked: 2, updated: 0, failed: 0 });
  });

  it('refuses feeds on private addresses unless allowed, without sending them a request', async () => {
    // Prepare
    const store = memoryStore([publication('rss-pub', '/rss?private-check')]);

    // Act
    const result = await collectFeeds({ store, now: NOW });

    // Assess
    expect(result).toMatchObject({ checked: 1, updated: 0, failed: 1 });
    expect(result.failures[0]?.reason).toMatch(/non-public/);
    expect(feeds.hits.get('/rss?private-check')).toBeUndefined();
    expect(store.stored.get('rss-pub')).toBeUndefined();
  });

  it('keeps the result of the run when the store refuses a write it lost a race on', async () => {
    // Prepare: the stored value changes between listing and writing.
    const store = memoryStore([publication('rss-pub', '/rss')]);
    const racing: FeedStore = {
      listFeedPublications: store.listFeedPublications,
      updateLatestPost: async (listed, latestPostAt, now) => {
        store.stored.set(listed.slug, '2025-01-19T00:00:00.000Z');
        return store.updateLatestPost(listed, latestPostAt, now);
      },
    };

    // Act
    const result = await collectFeeds({ store: racing, now: NOW, allowPrivateAddresses: true });

    // Assess
    expect(result).toMatchObject({ checked: 1, updated: 0, failed: 0 });
    expect(store.stored.get('rss-pub')).toBe('2025-01-19T00:00:00.000Z');
  });
});
