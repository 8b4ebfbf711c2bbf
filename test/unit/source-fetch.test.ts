import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../functions/lib/config';
import { previewSource } from '../../functions/ranking/lib/sources/add-source';
import { COLLECTOR_USER_AGENT } from '../../functions/ranking/lib/sources/polite-fetch';
import { createSourceFetch, toFixtureAddress } from '../../functions/ranking/lib/sources/source-fetch';
import { type FixtureWeb, startFixtureWeb } from '../../infra/local/fixture-web';
import { sourceFixture } from '../support/source-fetch';

const NOW = new Date('2026-11-26T00:00:00.000Z');

/** What the fixture server answers, by the path it is asked for (the web's host first). */
const ANSWERS = {
  '/medium.com/ux-collective?format=json': { status: 200, body: sourceFixture('medium-ux-collective.json.txt') },
  '/uxdesign.cc/feed': { status: 200, body: sourceFixture('medium-feed.xml') },
  '/old-kitchen.example/feed.xml': { status: 301, location: '/pulse-kitchen.example/feed.xml' },
  '/pulse-kitchen.example/feed.xml': { status: 200, body: sourceFixture('blog-rss.xml') },
};

let web: FixtureWeb;
let origin: string;
let requests: FixtureWeb['requests'];

beforeAll(async () => {
  web = await startFixtureWeb(ANSWERS);
  ({ origin, requests } = web);
});

afterAll(() => web.close());

const LOCAL_ENV = { STAGE: 'local', TABLE_NAME: 'table', ALLOWED_ORIGINS: 'http://localhost:3000' };

describe('reading sources from a fixture server instead of the web', () => {
  it('previews a Medium publication offline, asking the fixture server as the collector asks the web', async () => {
    // Prepare
    requests.length = 0;
    const fetch = createSourceFetch({ fetchPrivateAddresses: true, sourceFixtureOrigin: origin }, { minIntervalMs: 0 });

    // Act
    const { snapshot } = await previewSource('https://medium.com/UX-Collective/some-post?source=home', fetch, NOW);

    // Assess: the web's addresses in what is stored, the fixture server's in what was asked
    expect(snapshot).toMatchObject({
      canonicalId: 'medium:e8dd6b4e5a3f',
      name: 'UX Collective',
      url: 'https://uxdesign.cc/',
      followers: 478_213,
      latestPostAt: '2026-11-25T17:58:40.912Z',
      feedUrl: 'https://uxdesign.cc/feed',
    });
    expect(requests.map((request) => request.path)).toEqual([
      '/medium.com/robots.txt',
      '/medium.com/ux-collective?format=json',
      '/uxdesign.cc/robots.txt',
      '/uxdesign.cc/feed',
    ]);
    expect(new Set(requests.map((request) => request.userAgent))).toEqual(new Set([COLLECTOR_USER_AGENT]));
  });

  it("keys a feed that moved by the web address it moved to, never by the fixture server's", async () => {
    // Prepare
    const fetch = createSourceFetch({ fetchPrivateAddresses: true, sourceFixtureOrigin: origin }, { minIntervalMs: 0 });

    // Act
    const { snapshot } = await previewSource('https://old-kitchen.example/feed.xml', fetch, NOW);

    // Assess
    expect(snapshot).toMatchObject({
      canonicalId: 'feed:https://pulse-kitchen.example/feed.xml',
      url: 'https://pulse-kitchen.example/',
      feedUrl: 'https://pulse-kitchen.example/feed.xml',
    });
  });

  it('waits a tenth of the interval between two requests to one host when the fixture server answers for the web', async () => {
    // Prepare: a clock that moves only when the fetcher sleeps
    const waitsFor = async (settings: { sourceFixtureOrigin: string }) => {
      let now = 0;
      const waits: number[] = [];
      const options = {
        minIntervalMs: 1_000,
        clock: () => now,
        sleep: (ms: number) => {
          waits.push(ms);
          now += ms;
          return Promise.resolve();
        },
      };
      const fetch = createSourceFetch({ fetchPrivateAddresses: true, ...settings }, options);
      await fetch('https://medium.com/ux-collective?format=json', { accept: 'application/json' });
      await fetch('https://uxdesign.cc/feed', { accept: 'application/rss+xml' });
      return waits;
    };

    // Act
    const fixtureWaits = await waitsFor({ sourceFixtureOrigin: origin });

    // Assess: each host's document waited 100 ms after its robots.txt, not the 1,000 the web gets
    expect(fixtureWaits).toEqual([100, 100]);
  });

  it('puts the host first in the path and keeps the query', () => {
    // Act
    const address = toFixtureAddress('https://medium.com/ux-collective?format=json', 'http://127.0.0.1:4010');

    // Assess
    expect(address).toBe('http://127.0.0.1:4010/medium.com/ux-collective?format=json');
  });

  it('is refused outside the local runtime, without private addresses, and for anything but an origin', () => {
    // Act
    const attempt = (env: Record<string, string>) => () => loadConfig({ ...LOCAL_ENV, ...env });
    const accepted = loadConfig({ ...LOCAL_ENV, FETCH_PRIVATE_ADDRESSES: 'true', SOURCE_FIXTURE_ORIGIN: `${origin}/` });

    // Assess
    expect(accepted.sourceFixtureOrigin).toBe(origin);
    expect(loadConfig(LOCAL_ENV).sourceFixtureOrigin).toBeUndefined();
    expect(attempt({ STAGE: 'prod', SOURCE_FIXTURE_ORIGIN: origin })).toThrow(
      new ConfigError("SOURCE_FIXTURE_ORIGIN is for the local runtime only, not stage 'prod'"),
    );
    expect(attempt({ SOURCE_FIXTURE_ORIGIN: origin })).toThrow(
      new ConfigError('SOURCE_FIXTURE_ORIGIN needs FETCH_PRIVATE_ADDRESSES=true'),
    );
    expect(attempt({ FETCH_PRIVATE_ADDRESSES: 'true', SOURCE_FIXTURE_ORIGIN: `${origin}/fixtures` })).toThrow(
      /must be an http\(s\) origin/,
    );
    expect(attempt({ FETCH_PRIVATE_ADDRESSES: 'true', SOURCE_FIXTURE_ORIGIN: 'ftp://127.0.0.1' })).toThrow(
      /must be an http\(s\) origin/,
    );
  });

  it('refuses the fixture server like any private address when the deployment does not allow them', async () => {
    // Prepare
    requests.length = 0;
    const fetch = createSourceFetch({ fetchPrivateAddresses: false, sourceFixtureOrigin: origin }, { minIntervalMs: 0 });

    // Act
    const attempt = previewSource('https://old-kitchen.example/feed.xml', fetch, NOW);

    // Assess: its robots.txt is out of reach, which means read nothing, and nothing reached it
    await expect(attempt).rejects.toThrow('robots.txt of old-kitchen.example could not be read');
    expect(requests).toEqual([]);
  });
});
