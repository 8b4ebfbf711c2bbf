import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes';
import { COLLECTOR_USER_AGENT } from '../../functions/ranking/lib/sources/polite-fetch';
import { createDocumentClient } from '../../functions/lib/db/client';
import { createDb } from '../../functions/lib/db/service';
import { mediumPublication, startFixtureWeb } from '../../infra/local/fixture-web';
import { apiSuite } from '../support/api-suite';
import { expectError, expectOk, type SignedInUser } from '../support/api-client';

const LAST_POST = new Date('2026-11-24T08:00:00Z');
const PUBLICATIONS = [
  { slug: 'signal-and-noise', id: 'a1b2c3d4e5f6', name: 'Signal and Noise', followers: 48_000, tags: ['Data Science'] },
  { slug: 'slow-cooking', id: 'b2c3d4e5f6a1', name: 'Slow Cooking', followers: 31_500, tags: ['Food'] },
  { slug: 'night-shift', id: 'c3d4e5f6a1b2', name: 'Night Shift', followers: 12_250, tags: ['Technology'] },
] as const;

/** Medium as the adapters read it, offline. */
const web = await startFixtureWeb(
  Object.assign(
    {},
    ...PUBLICATIONS.map(({ slug, ...publication }) => mediumPublication(slug, { ...publication, lastPostAt: LAST_POST })),
  ),
);
afterAll(() => web.close());

const suite = apiSuite({ sourceFixtureOrigin: web.origin });
const addresses = PUBLICATIONS.map(({ slug }) => `https://medium.com/${slug}`);

let superuser: SignedInUser;
const rank = async () => expectOk(await suite.api.call(routes.runRanking, { as: superuser }));
const board = async () => {
  const answer = await suite.api.call(routes.loadPubs, { query: { limit: 10 } });
  expectOk(answer);
  return answer.body.items.map((item) => [item.name, item.followers]);
};

const table = () =>
  createDb(createDocumentClient({ endpoint: suite.runtime.dynamoDbEndpoint, region: 'us-east-1' }), suite.runtime.tableName);

/** The next day, as far as the collector can tell: every source's last attempt moved back 21 hours. */
async function aDayPasses(): Promise<void> {
  const db = table();
  const { data } = await db.entities.publicationSource.scan.go({ pages: 'all' });
  const yesterday = new Date(Date.now() - 21 * 3600 * 1000).toISOString();
  for (const source of data) {
    await db.entities.publicationSource.patch({ canonicalId: source.canonicalId }).set({ lastAttemptAt: yesterday }).go();
  }
}

/**
 * What is stored for a publication now: its page is answered from the last ranking run (and
 * cached at the edge for a minute), so a second read in one test would show the first one.
 */
async function stored(slug: string) {
  const db = table();
  const [{ data: publication }, { data: sources }] = await Promise.all([
    db.entities.publication.get({ slug }).go(),
    db.entities.publicationSource.query.bySlug({ slug }).go(),
  ]);
  return { publication, source: sources[0] };
}

describe('collecting publication sources on a schedule, through the collection queue', () => {
  it('fills the boards of a fresh deployment from a list of Medium addresses, with no ingestion call', async () => {
    // Prepare
    superuser = await suite.api.signIn('editor', { superuser: true });

    // Act
    const imported = await suite.api.call(routes.importSources, { body: { urls: addresses }, as: superuser });
    await rank();

    // Assess
    expectOk(imported);
    expect(imported.body.results.map((result) => result.outcome)).toEqual(['added', 'added', 'added']);
    expect(await board()).toEqual([
      ['Signal and Noise', 48_000],
      ['Slow Cooking', 31_500],
      ['Night Shift', 12_250],
    ]);
  });

  it("refreshes every due source in one cycle: the daily plan, the queue, one host's batch read politely", async () => {
    // Prepare: a day later, Medium counts other followers.
    await aDayPasses();
    const grown = { 'signal-and-noise': 50_100, 'slow-cooking': 31_000, 'night-shift': 14_900 } as const;
    for (const { slug, ...publication } of PUBLICATIONS) {
      Object.assign(web.answers, mediumPublication(slug, { ...publication, followers: grown[slug], lastPostAt: LAST_POST }));
    }
    const requestsBefore = web.requests.length;
    const cycleStarted = Date.now();

    // Act
    await suite.runtime.runJob('plan-source-collection');
    await suite.runtime.queuesSettled();

    // Assess: each page shows the new count, and its source read just now.
    for (const { slug } of PUBLICATIONS) {
      const page = await suite.api.call(routes.getPublication, { params: { slug } });
      expectOk(page);
      expect(page.body.publication.followers).toBe(grown[slug]);
      expect(page.body.source).toMatchObject({ platform: 'medium', url: `https://medium.com/${slug}`, status: 'active' });
      expect(Date.parse(page.body.source?.lastCollectedAt ?? '')).toBeGreaterThan(cycleStarted);
    }
    const cycle = web.requests.slice(requestsBefore).map((request) => request.path);
    // One batch for medium.com: its robots.txt first, then each publication's JSON and feed.
    expect(cycle[0]).toBe('/medium.com/robots.txt');
    expect(cycle.slice(1).sort()).toEqual(
      PUBLICATIONS.flatMap(({ slug }) => [`/medium.com/${slug}?format=json`, `/medium.com/feed/${slug}`]).sort(),
    );
    const userAgents = web.requests.slice(requestsBefore).map((request) => request.userAgent);
    expect(new Set(userAgents)).toEqual(new Set([COLLECTOR_USER_AGENT]));
  });

  it('collects nothing twice: a plan run again the same day finds nothing due', async () => {
    // Prepare
    const requestsBefore = web.requests.length;

    // Act
    await suite.runtime.runJob('plan-source-collection');
    await suite.runtime.queuesSettled();

    // Assess
    expect(web.requests.slice(requestsBefore)).toEqual([]);
  });

  it('asks again the next day with what Medium answered, so an unchanged publication costs it a 304', async () => {
    // Prepare: Medium now tags its answers; one cycle reads them whole and keeps the tags.
    for (const [path, answer] of Object.entries(web.answers)) answer.etag = `"${path.length}-v1"`;
    await aDayPasses();
    await suite.runtime.runJob('plan-source-collection');
    await suite.runtime.queuesSettled();
    await aDayPasses();
    const requestsBefore = web.requests.length;
    const cycleStarted = Date.now();

    // Act: the next day, nothing has changed at Medium.
    await suite.runtime.runJob('plan-source-collection');
    await suite.runtime.queuesSettled();

    // Assess: every document was asked for with its tag (and answered 304), and nothing was lost.
    const cycle = web.requests.slice(requestsBefore).filter((request) => !request.path.endsWith('/robots.txt'));
    expect(cycle).toHaveLength(PUBLICATIONS.length * 2);
    for (const request of cycle) expect(request.ifNoneMatch).toBe(web.answers[request.path]?.etag);
    for (const { slug } of PUBLICATIONS) {
      const { publication, source } = await stored(slug);
      expect(publication?.followers).toBe({ 'signal-and-noise': 50_100, 'slow-cooking': 31_000, 'night-shift': 14_900 }[slug]);
      expect(publication?.latestPostAt).toBe(LAST_POST.toISOString());
      expect(source?.status).toBe('active');
      expect(Date.parse(source?.lastCollectedAt ?? '')).toBeGreaterThan(cycleStarted);
    }
  });

  it('lists for superusers, and only for them, the sources the collector could not read, with the reason', async () => {
    // Prepare: a day later, Night Shift is no longer on Medium.
    delete web.answers['/medium.com/night-shift?format=json'];
    await aDayPasses();
    await suite.runtime.runJob('plan-source-collection');
    await suite.runtime.queuesSettled();
    const reader = await suite.api.signIn('reader');

    // Act
    const forSuperuser = await suite.api.call(routes.listSourcesNeedingAttention, { as: superuser });
    const forReader = await suite.api.call(routes.listSourcesNeedingAttention, { as: reader });

    // Assess
    expectOk(forSuperuser);
    expect(forSuperuser.body).toEqual({
      sources: [
        {
          slug: 'night-shift',
          name: 'Night Shift',
          platform: 'medium',
          url: 'https://medium.com/night-shift',
          status: 'failing',
          lastError: 'https://medium.com/night-shift?format=json was not found (HTTP 404)',
          failingSince: expect.any(String),
          lastCollectedAt: expect.any(String),
        },
      ],
      counts: { failing: 1, flagged: 0, gone: 0 },
    });
    expectError(forReader, 403);
  });

  it('reads a publication just added conditionally from its first collection, whether imported or suggested and accepted', async () => {
    // Prepare: two more tagged publications; one imported, one suggested below the auto-accept floor and accepted by hand.
    const added = [
      { slug: 'quiet-garden', id: 'd4e5f6a1b2c3', name: 'Quiet Garden', followers: 25_000, tags: ['Gardening'] },
      { slug: 'small-press', id: 'e5f6a1b2c3d4', name: 'Small Press', followers: 400, tags: ['Books'] },
    ] as const;
    const isAdded = (path: string) => added.some(({ slug }) => path.includes(`/${slug}`));
    for (const { slug, ...publication } of added) {
      Object.assign(web.answers, mediumPublication(slug, { ...publication, lastPostAt: LAST_POST }));
    }
    for (const [path, answer] of Object.entries(web.answers)) if (isAdded(path)) answer.etag = `"${path.length}-first"`;
    const imported = await suite.api.call(routes.importSources, { body: { urls: ['https://medium.com/quiet-garden'] }, as: superuser });
    const suggester = await suite.api.signIn('suggester');
    const suggested = await suite.api.call(routes.suggestPublication, {
      body: { url: 'https://medium.com/small-press' },
      as: suggester,
    });
    expectOk(imported);
    expectOk(suggested, 201);
    expect(suggested.body.suggestion.status).toBe('pending');
    const accepted = await suite.api.call(routes.decideSuggestion, {
      params: { id: suggested.body.suggestion.id, decision: 'accept' },
      as: superuser,
    });
    expectOk(accepted);
    await aDayPasses();
    const requestsBefore = web.requests.length;

    // Act: the next day, nothing has changed at Medium.
    await suite.runtime.runJob('plan-source-collection');
    await suite.runtime.queuesSettled();

    // Assess: each of their documents was asked for with the tag read when it was added, and answered 304.
    const firstCollection = web.requests.slice(requestsBefore).filter((request) => isAdded(request.path));
    expect(firstCollection).toHaveLength(added.length * 2);
    for (const request of firstCollection) expect(request.ifNoneMatch).toBe(web.answers[request.path]?.etag);
    for (const { slug, followers } of added) {
      const { publication, source } = await stored(slug);
      expect(publication?.followers).toBe(followers);
      expect(source?.status).toBe('active');
    }
  });
});
