import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectFeeds, dbFeedStore } from '../../functions/ranking/collect-feeds';
import type { PublicationItem } from '../../functions/lib/db/entities/publication';
import type { Db } from '../../functions/lib/db/service';
import { generateSeedData } from '../../infra/local/seed/generate-publications';
import { createTestTable } from '../support/dynamo';

const NOW = new Date('2025-01-20T12:00:00Z');
const RSS_NEWEST = '2025-01-17T08:00:00.000Z';
const ATOM_NEWEST = '2025-01-18T09:00:00.000Z';

const FEEDS: Record<string, string> = {
  '/rss': `<?xml version="1.0"?><rss version="2.0"><channel><title>R</title>
    <item><pubDate>Mon, 13 Jan 2025 08:00:00 GMT</pubDate></item>
    <item><pubDate>Fri, 17 Jan 2025 08:00:00 GMT</pubDate></item></channel></rss>`,
  '/atom': `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
    <entry><published>2025-01-02T00:00:00Z</published><updated>2025-01-18T09:00:00Z</updated></entry></feed>`,
  '/broken': '<html><body>Site under maintenance</body></html>',
};

function startFeedServer(): Promise<{ server: Server; base: string }> {
  const server = createServer((request, response) => {
    const feed = FEEDS[request.url ?? ''];
    if (feed) response.writeHead(200, { 'content-type': 'application/xml' }).end(feed);
    // The slow feed answers long after the collector has given up on it.
    else setTimeout(() => response.writeHead(200).end(FEEDS['/rss']), 3_000).unref();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}

describe('collectFeeds against DynamoDB', () => {
  let db: Db;
  let feeds: Awaited<ReturnType<typeof startFeedServer>>;
  let publications: PublicationItem[];

  async function stored(slug: string) {
    const { data } = await db.entities.publication.get({ slug }).go();
    return data;
  }

  beforeAll(async () => {
    // Prepare: a dozen publications spread over the shards, five with feeds on the local server.
    ({ db } = await createTestTable());
    feeds = await startFeedServer();
    const generated = generateSeedData({ today: '2025-01-20', publications: 12, seed: 3 }).publications;
    const feedSetups: Array<{ path: string; latestPostAt?: string }> = [
      { path: '/rss', latestPostAt: '2025-01-01T00:00:00.000Z' },
      { path: '/atom' },
      { path: '/slow', latestPostAt: '2024-12-01T00:00:00.000Z' },
      { path: '/broken', latestPostAt: '2024-12-02T00:00:00.000Z' },
      { path: '/rss', latestPostAt: '2025-01-19T00:00:00.000Z' },
    ];
    publications = generated.map(({ feedUrl: _feedUrl, latestPostAt: _latestPostAt, ...rest }, index) => {
      const setup = feedSetups[index];
      return setup
        ? { ...rest, feedUrl: `${feeds.base}${setup.path}`, ...(setup.latestPostAt ? { latestPostAt: setup.latestPostAt } : {}) }
        : rest;
    });
    await db.entities.publication.put(publications).go();
  });

  afterAll(async () => {
    feeds?.server.closeAllConnections();
    await new Promise((resolve) => feeds?.server.close(resolve));
  });

  it('updates latestPostAt only where a feed shows a newer post, and survives broken and slow feeds', async () => {
    // Prepare
    const [fromRss, fromAtom, slow, broken, newerThanFeed] = publications.map((publication) => publication.slug);

    // Act
    const result = await collectFeeds({ db, now: NOW, allowPrivateAddresses: true, timeoutMs: 500 });

    // Assess
    expect({ checked: result.checked, updated: result.updated, failed: result.failed }).toEqual({
      checked: 5,
      updated: 2,
      failed: 2,
    });
    expect(result.failures.map((failure) => failure.slug).sort()).toEqual([slow, broken].sort());
    expect(await stored(fromRss!)).toMatchObject({ latestPostAt: RSS_NEWEST, revision: 2, updatedAt: NOW.toISOString() });
    expect(await stored(fromAtom!)).toMatchObject({ latestPostAt: ATOM_NEWEST, revision: 2 });
    expect(await stored(slow!)).toMatchObject({ latestPostAt: '2024-12-01T00:00:00.000Z', revision: 1 });
    expect(await stored(broken!)).toMatchObject({ latestPostAt: '2024-12-02T00:00:00.000Z', revision: 1 });
    expect(await stored(newerThanFeed!)).toMatchObject({ latestPostAt: '2025-01-19T00:00:00.000Z', revision: 1 });
    for (const publication of publications.slice(5)) {
      expect(await stored(publication.slug)).toEqual(publication);
    }
  });

  it('never writes over a value that changed since it was read, nor creates a missing publication', async () => {
    // Prepare
    const store = dbFeedStore(db);
    const target = publications[4] as PublicationItem;
    const before = await stored(target.slug);

    // Act
    const overChanged = await store.updateLatestPost(
      { slug: target.slug, feedUrl: target.feedUrl ?? '', latestPostAt: '2024-01-01T00:00:00.000Z' },
      '2025-01-20T00:00:00.000Z',
      NOW,
    );
    const onMissing = await store.updateLatestPost(
      { slug: 'no-such-publication', feedUrl: 'https://no-such-publication.example.com/feed', latestPostAt: undefined },
      '2025-01-20T00:00:00.000Z',
      NOW,
    );

    // Assess
    expect(overChanged).toBe(false);
    expect(onMissing).toBe(false);
    expect(await stored(target.slug)).toEqual(before);
    expect(await stored('no-such-publication')).toBeNull();
  });
});
