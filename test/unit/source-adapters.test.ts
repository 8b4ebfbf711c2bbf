import { describe, expect, it } from 'vitest';
import { parseRetryAfter, SafeFetchError } from '../../functions/lib/http/safe-fetch';
import { recogniseSource } from '../../functions/ranking/lib/sources/adapters';
import { feedAdapter } from '../../functions/ranking/lib/sources/feed';
import { mediumAdapter } from '../../functions/ranking/lib/sources/medium';
import { wordpressComAdapter } from '../../functions/ranking/lib/sources/wordpress-com';
import { SourceError, SourceGone, SourceRateLimited, SourceUnreadable } from '../../functions/ranking/lib/sources/source-adapter';
import { fixtureFetch, sourceFixture } from '../support/source-fetch';

const NOW = new Date('2026-11-26T00:00:00.000Z');

function ref(url: string) {
  const recognised = mediumAdapter.recognise(new URL(url));
  if (!recognised) throw new Error(`${url} was not recognised`);
  return recognised;
}

describe('the Medium adapter', () => {
  it('recognises publications on medium.com, in one normal form, and nothing else', () => {
    // Act
    const recognise = (url: string) => mediumAdapter.recognise(new URL(url))?.url ?? null;

    // Assess
    expect(recognise('https://medium.com/ux-collective')).toBe('https://medium.com/ux-collective');
    expect(recognise('http://www.medium.com/UX-Collective/some-post-1a2b?source=x#top')).toBe('https://medium.com/ux-collective');
    expect(recognise('https://medium.com/@someone')).toBeNull();
    expect(recognise('https://medium.com/tag/design')).toBeNull();
    expect(recognise('https://medium.com/')).toBeNull();
    expect(recognise('https://notmedium.com/ux-collective')).toBeNull();
  });

  it("reads a publication's JSON and feed into a snapshot: followers, tags, image, its own domain and latest post", async () => {
    // Prepare
    const { fetch, calls } = fixtureFetch({
      'https://medium.com/ux-collective?format=json': { body: sourceFixture('medium-ux-collective.json.txt') },
      'https://uxdesign.cc/feed': { body: sourceFixture('medium-feed.xml') },
    });

    // Act
    const snapshot = await mediumAdapter.collect(ref('https://medium.com/ux-collective'), fetch, NOW);

    // Assess
    expect(snapshot).toEqual({
      platform: 'medium',
      canonicalId: 'medium:e8dd6b4e5a3f',
      name: 'UX Collective',
      url: 'https://uxdesign.cc/',
      description: 'We believe designers are thinkers as much as they are makers.',
      imageUrl: 'https://cdn-images-1.medium.com/max/400/1*mDhF9X4VO0rCrJvWFatyxg.png',
      topics: ['ux', 'design', 'user experience'],
      followers: 478_213,
      latestPostAt: '2026-11-25T17:58:40.912Z',
      feedUrl: 'https://uxdesign.cc/feed',
    });
    expect(calls.map((call) => call.accept)).toEqual(['application/json', expect.stringContaining('application/rss+xml')]);
  });

  it('keeps the identity of a renamed publication that left its domain, and reads its feed on medium.com', async () => {
    // Prepare
    const { fetch } = fixtureFetch({
      'https://medium.com/uxcollective?format=json': { body: sourceFixture('medium-renamed.json.txt') },
      'https://medium.com/feed/uxcollective': { body: sourceFixture('medium-feed.xml') },
    });

    // Act
    const snapshot = await mediumAdapter.collect(ref('https://medium.com/uxcollective'), fetch, NOW);

    // Assess
    expect(snapshot).toMatchObject({
      canonicalId: 'medium:e8dd6b4e5a3f',
      name: 'UX Collective (renamed)',
      url: 'https://medium.com/uxcollective',
      feedUrl: 'https://medium.com/feed/uxcollective',
      description: 'Curated stories on UX.',
      imageUrl: null,
      followers: 478_990,
    });
  });

  it.each([
    [410, SourceGone, 'https://medium.com/gone-for-good?format=json is gone (HTTP 410)'],
    [404, SourceGone, 'https://medium.com/gone-for-good?format=json was not found (HTTP 404)'],
  ] as const)('reports a deleted publication (HTTP %i) as gone', async (status, kind, message) => {
    // Prepare
    const { fetch } = fixtureFetch({ 'https://medium.com/gone-for-good?format=json': { status } });

    // Act
    const collecting = mediumAdapter.collect(ref('https://medium.com/gone-for-good'), fetch, NOW);

    // Assess
    await expect(collecting).rejects.toBeInstanceOf(kind);
    await expect(collecting).rejects.toThrow(message);
  });

  it('reports a rate limit with the wait the platform asked for, and a 503 with Retry-After as one too', async () => {
    // Prepare
    const { fetch } = fixtureFetch({
      'https://medium.com/busy?format=json': { status: 429, retryAfterSeconds: 120 },
      'https://medium.com/resting?format=json': { status: 503, retryAfterSeconds: 30 },
      'https://medium.com/broken?format=json': { status: 500 },
    });

    // Act
    const busy = mediumAdapter.collect(ref('https://medium.com/busy'), fetch, NOW).catch((error: unknown) => error);
    const resting = mediumAdapter.collect(ref('https://medium.com/resting'), fetch, NOW).catch((error: unknown) => error);
    const broken = mediumAdapter.collect(ref('https://medium.com/broken'), fetch, NOW).catch((error: unknown) => error);

    // Assess
    expect(await busy).toBeInstanceOf(SourceRateLimited);
    expect(await busy).toMatchObject({ retryAfterSeconds: 120 });
    expect(await resting).toMatchObject({ name: 'SourceRateLimited', retryAfterSeconds: 30 });
    // A plain server error is a failure of the day, not a request to slow down.
    expect(await broken).toBeInstanceOf(SourceError);
    expect(await broken).not.toBeInstanceOf(SourceRateLimited);
    expect((await broken) as Error).toHaveProperty('message', 'https://medium.com/broken?format=json: HTTP 500');
  });

  it.each([
    ['a page instead of JSON', '<!doctype html><html><body>Sign in</body></html>', 'Medium did not answer with JSON'],
    ['a profile, not a publication', sourceFixture('medium-profile.json.txt'), 'not with a publication'],
    [
      'a publication without a follower count',
      sourceFixture('medium-renamed.json.txt').replace('"metadata":{"followerCount":478990}', '"metadata":{}'),
      'has no follower count',
    ],
  ])('refuses %s as unreadable, saying why', async (_label, body, message) => {
    // Prepare
    const { fetch } = fixtureFetch({ 'https://medium.com/odd?format=json': { body } });

    // Act
    const collecting = mediumAdapter.collect(ref('https://medium.com/odd'), fetch, NOW);

    // Assess
    await expect(collecting).rejects.toBeInstanceOf(SourceUnreadable);
    await expect(collecting).rejects.toThrow(message);
  });

  it('passes on a failure to connect as a source error naming the address', async () => {
    // Prepare
    const { fetch } = fixtureFetch({ 'https://medium.com/offline?format=json': new SafeFetchError('Request timed out') });

    // Act
    const collecting = mediumAdapter.collect(ref('https://medium.com/offline'), fetch, NOW);

    // Assess
    await expect(collecting).rejects.toThrow('https://medium.com/offline?format=json: Request timed out');
  });
});

describe('the feed adapter', () => {
  it('reads an RSS channel: name and description decoded, site, image, latest post, and no follower count', async () => {
    // Prepare
    const { fetch } = fixtureFetch({ 'https://pulse-kitchen.example/feed.xml': { body: sourceFixture('blog-rss.xml') } });
    const recognised = feedAdapter.recognise(new URL('https://pulse-kitchen.example/feed.xml#latest'));

    // Act
    const snapshot = await feedAdapter.collect(recognised!, fetch, NOW);

    // Assess
    expect(recognised).toEqual({ platform: 'feed', url: 'https://pulse-kitchen.example/feed.xml' });
    expect(snapshot).toEqual({
      platform: 'feed',
      canonicalId: 'feed:https://pulse-kitchen.example/feed.xml',
      name: 'Pulse & Kitchen — notes',
      url: 'https://pulse-kitchen.example/',
      description: 'Recipes <and> stories.',
      imageUrl: 'https://pulse-kitchen.example/logo.png',
      topics: [],
      followers: null,
      latestPostAt: '2026-11-24T08:00:00.000Z',
      feedUrl: 'https://pulse-kitchen.example/feed.xml',
    });
  });

  it("reads an Atom feed's site from its alternate link, and keys a moved feed by where it now is", async () => {
    // Prepare: the old address redirects permanently to the new one
    const { fetch } = fixtureFetch({
      'https://glass.example/old-feed': { body: sourceFixture('blog-atom.xml'), url: 'https://glass.example/atom.xml' },
    });

    // Act
    const snapshot = await feedAdapter.collect({ platform: 'feed', url: 'https://glass.example/old-feed' }, fetch, NOW);

    // Assess
    expect(snapshot).toMatchObject({
      canonicalId: 'feed:https://glass.example/atom.xml',
      name: 'Glass Poetry',
      url: 'https://glass.example/',
      description: 'Poems, weekly.',
      imageUrl: 'https://glass.example/icon.png',
      latestPostAt: '2026-11-20T10:00:00.000Z',
      feedUrl: 'https://glass.example/atom.xml',
    });
  });

  it('refuses a page that is not a feed, and reports a deleted feed as gone', async () => {
    // Prepare
    const { fetch } = fixtureFetch({
      'https://site.example/': { body: '<!doctype html><html><head><title>Home</title></head></html>' },
      'https://site.example/feed': { status: 410 },
    });

    // Act
    const notAFeed = feedAdapter.collect({ platform: 'feed', url: 'https://site.example/' }, fetch, NOW);
    const gone = feedAdapter.collect({ platform: 'feed', url: 'https://site.example/feed' }, fetch, NOW);

    // Assess
    await expect(notAFeed).rejects.toBeInstanceOf(SourceUnreadable);
    await expect(notAFeed).rejects.toThrow('https://site.example/ is not a feed: Not an RSS or Atom feed');
    await expect(gone).rejects.toBeInstanceOf(SourceGone);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    // Act and assess
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter('Thu, 26 Nov 2026 00:02:00 GMT', NOW.getTime())).toBe(120);
    expect(parseRetryAfter('Wed, 25 Nov 2026 00:00:00 GMT', NOW.getTime())).toBe(0);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('the WordPress.com adapter', () => {
  const site = 'https://public-api.wordpress.com/rest/v1.1/sites/fieldnotesontea.wordpress.com';

  it('recognises blogs on wordpress.com and not its own hosts', () => {
    // Act
    const recognise = (url: string) => wordpressComAdapter.recognise(new URL(url))?.url ?? null;

    // Assess
    expect(recognise('https://FieldNotesOnTea.wordpress.com/2026/11/24/oolong/')).toBe('https://fieldnotesontea.wordpress.com/');
    expect(recognise('https://public-api.wordpress.com/rest/v1.1/sites/x')).toBeNull();
    expect(recognise('https://wordpress.com/read')).toBeNull();
    expect(recognise('https://medium.com/ux-collective')).toBeNull();
  });

  it("reads the site's subscriber count, id, decoded description, icon, own domain and newest post", async () => {
    // Prepare
    const { fetch } = fixtureFetch({
      [`${site}?fields=ID,name,description,URL,icon,subscribers_count,is_private`]: {
        body: sourceFixture('wordpress-site.json'),
      },
      [`${site}/posts?number=1&fields=date`]: { body: sourceFixture('wordpress-posts.json') },
    });
    const recognised = wordpressComAdapter.recognise(new URL('https://fieldnotesontea.wordpress.com/'));

    // Act
    const snapshot = await wordpressComAdapter.collect(recognised!, fetch, NOW);

    // Assess
    expect(snapshot).toEqual({
      platform: 'wordpress.com',
      canonicalId: 'wordpress.com:113402758',
      name: 'Field Notes on Tea',
      url: 'https://fieldnotesontea.com/',
      description: 'A tea merchant’s notebook',
      imageUrl: 'https://fieldnotesontea.com/wp-content/uploads/2024/01/cropped-leaf.png',
      topics: [],
      followers: 18_342,
      latestPostAt: '2026-11-24T07:30:00.000Z',
      feedUrl: 'https://fieldnotesontea.com/feed/',
    });
  });

  it('refuses a private site and one without a subscriber count, and reports a deleted one as gone', async () => {
    // Prepare
    const privateSite = sourceFixture('wordpress-site.json').replace('"is_private":false', '"is_private":true');
    const uncounted = sourceFixture('wordpress-site.json').replace('"subscribers_count":18342,', '');
    const fields = '?fields=ID,name,description,URL,icon,subscribers_count,is_private';
    const { fetch } = fixtureFetch({
      [`https://public-api.wordpress.com/rest/v1.1/sites/closed.wordpress.com${fields}`]: { body: privateSite },
      [`https://public-api.wordpress.com/rest/v1.1/sites/quiet.wordpress.com${fields}`]: { body: uncounted },
      [`https://public-api.wordpress.com/rest/v1.1/sites/deleted.wordpress.com${fields}`]: { status: 404 },
    });
    const collect = (blog: string) =>
      wordpressComAdapter.collect({ platform: 'wordpress.com', url: `https://${blog}.wordpress.com/` }, fetch, NOW);

    // Act and assess
    await expect(collect('closed')).rejects.toThrow('https://closed.wordpress.com/ is a private site');
    await expect(collect('quiet')).rejects.toThrow('has no subscriber count');
    await expect(collect('deleted')).rejects.toBeInstanceOf(SourceGone);
  });
});

describe('recogniseSource', () => {
  it('sends each address to the adapter that counts its followers, anything else to the feed adapter, and refuses what is no web address', () => {
    // Act
    const platformOf = (url: string) => recogniseSource(url)?.ref ?? null;

    // Assess
    expect(platformOf(' https://medium.com/ux-collective/a-post ')).toEqual({
      platform: 'medium',
      url: 'https://medium.com/ux-collective',
    });
    expect(platformOf('https://fieldnotesontea.wordpress.com/')).toEqual({
      platform: 'wordpress.com',
      url: 'https://fieldnotesontea.wordpress.com/',
    });
    expect(platformOf('https://glass.example/atom.xml')).toEqual({ platform: 'feed', url: 'https://glass.example/atom.xml' });
    expect(platformOf('ftp://files.example/feed')).toBeNull();
    expect(platformOf('not a url')).toBeNull();
  });
});
