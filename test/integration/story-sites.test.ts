import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { indexStorySites } from '../../functions/stories/lib/site-stories';
import { routes } from '../../shared/routes';
import { type ApiClient, createApiClient, expectError, expectOk, type SignedInUser } from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { storyInTable } from '../support/stories';

let runtime: TestRuntime;
let api: ApiClient;
let pages: Server;
/** The test's pages on 127.0.0.2 (which the local runtime may fetch): each names another site as its canonical address. */
let pageServer: string;

beforeAll(async () => {
  // /{canonical host}/{slug}: a page titled {slug} whose canonical link is https://{canonical host}/{slug}.
  pages = createServer((request, response) => {
    const [, host, slug] = (request.url ?? '/').split('/');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html><head><meta property="og:title" content="${slug}"><link rel="canonical" href="https://${host}/${slug}"></head><body></body></html>`,
    );
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.2', resolve));
  pageServer = `http://127.0.0.2:${(pages.address() as AddressInfo).port}`;
  runtime = await startTestRuntime();
  api = createApiClient(runtime);
});

afterAll(async () => {
  pages?.closeAllConnections();
  await new Promise<void>((resolve) => pages?.close(() => resolve()) ?? resolve());
  await runtime?.close();
});

const titleOf = (html: string) => /<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1];
const canonicalOf = (html: string) => /<link[^>]*rel="canonical"[^>]*href="([^"]*)"/.exec(html)?.[1];

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

const share = (as: SignedInUser, canonicalHost: string, slug: string) =>
  api.call(routes.shareStoryByUrl, { body: { url: `${pageServer}/${canonicalHost}/${slug}` }, as });

/** A site's page as a signed-in reader reads it (visitors may get a page up to 15 s old). */
async function sitePage(host: string, as: SignedInUser, query: { sort?: 'new' | 'hot'; cursor?: string } = {}) {
  const answer = await api.call(routes.readSiteFeed, { params: { host }, query, as });
  expectOk(answer);
  return answer.body;
}

/** Every story title of a site, following nextCursor page by page as the page's "more" button does. */
async function allTitles(host: string, as: SignedInUser, sort: 'new' | 'hot'): Promise<string[]> {
  const titles: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page += 1) {
    const body = await sitePage(host, as, { sort, ...(cursor ? { cursor } : {}) });
    expect(body.items.length).toBeLessThanOrEqual(20);
    titles.push(...body.items.map((story) => story.title ?? ''));
    if (!body.nextCursor) return titles;
    cursor = body.nextCursor;
  }
  throw new Error('The site page never ended');
}

describe('a site page', () => {
  let ana: SignedInUser;
  let rui: SignedInUser;

  beforeAll(async () => {
    [ana, rui] = await Promise.all([api.signIn('site-ana'), api.signIn('site-rui')]);
  });

  it('counts shares from www. and the bare host as one site, newest first, and keeps other sites apart', async () => {
    // Act
    expectOk(await share(ana, 'www.alpha.example', 'alpha-one'), 201);
    expectOk(await share(rui, 'alpha.example', 'alpha-two'), 201);
    expectOk(await share(ana, 'WWW.Alpha.example', 'alpha-three'), 201);
    expectOk(await share(rui, 'beta.example', 'beta-one'), 201);
    const alpha = await sitePage('alpha.example', ana);
    const typedWithWww = await api.call(routes.readSiteFeed, { params: { host: 'WWW.ALPHA.EXAMPLE' }, as: rui });
    const beta = await sitePage('beta.example', ana);

    // Assess
    expect(alpha.site).toEqual({ host: 'alpha.example', storyCount: 3 });
    expect(alpha.items.map((story) => story.title)).toEqual(['alpha-three', 'alpha-two', 'alpha-one']);
    expectOk(typedWithWww);
    expect(typedWithWww.body.site).toEqual({ host: 'alpha.example', storyCount: 3 });
    expect(beta.site.storyCount).toBe(1);
    expect(beta.items.map((story) => story.title)).toEqual(['beta-one']);
  });

  it('is served as HTML to crawlers, with each story linking its site page, and 404 for a site nobody shared from', async () => {
    // Act
    const crawl = (path: string) => fetch(`${runtime.url}${path}`, { headers: { 'user-agent': 'Twitterbot/1.0' } });
    const [newest, hottest, unknown, invalid] = await Promise.all([
      crawl('/stories/site/www.alpha.example'),
      crawl('/stories/site/alpha.example/hot'),
      crawl('/stories/site/nobody-shares-from.example'),
      crawl('/stories/site/not_a_host'),
    ]);
    const html = await newest.text();

    // Assess
    expect(newest.status).toBe(200);
    expect(titleOf(html)).toBe('Stories from alpha.example · TopPubs');
    expect(canonicalOf(html)).toBe(`${runtime.url}/stories/site/alpha.example`);
    expect(html).toContain('<h1>Stories from alpha.example</h1><p>3 stories</p>');
    expect(html).toContain('<span>from <a href="/stories/site/alpha.example">alpha.example</a></span>');
    expect(html.indexOf('alpha-three')).toBeLessThan(html.indexOf('alpha-one'));
    expect(hottest.status).toBe(200);
    expect(canonicalOf(await hottest.text())).toBe(`${runtime.url}/stories/site/alpha.example/hot`);
    expect(unknown.status).toBe(404);
    expect(invalid.status).toBe(404);
  });

  it('counts a page shared twice once', async () => {
    // Act
    expectOk(await share(ana, 'gamma.example', 'only-once'), 201);
    const again = await share(rui, 'gamma.example', 'only-once');
    const gamma = await sitePage('gamma.example', ana);

    // Assess
    expectOk(again);
    expect(again.body.duplicate).toBe(true);
    expect(gamma.site.storyCount).toBe(1);
    expect(gamma.items.map((story) => story.title)).toEqual(['only-once']);
  });

  it('keeps the count exact when 20 stories of one site are shared at once', async () => {
    // Prepare: four people (30 shares an hour each), half of the pages under www.
    const sharers = await Promise.all([1, 2, 3, 4].map((n) => api.signIn(`burst-${n}`)));

    // Act
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        share(sharers[index % 4] as SignedInUser, index % 2 ? 'www.burst.example' : 'burst.example', `burst-${index}`),
      ),
    );
    const titles = await allTitles('burst.example', ana, 'new');
    const burst = await sitePage('burst.example', ana);

    // Assess
    for (const answer of answers) expectOk(answer, 201);
    expect(burst.site.storyCount).toBe(20);
    expect(new Set(titles).size).toBe(20);
    expect(titles).toHaveLength(20);
  });

  it('lists a busy site page by page, newest first, each story once', async () => {
    // Prepare
    for (let index = 0; index < 25; index += 1) {
      await storyInTable(ana, `Paged ${index}`, hoursAgo(100 - index), { url: `https://www.paged.example/${index}` });
    }

    // Act
    const titles = await allTitles('paged.example', rui, 'new');

    // Assess
    expect(titles).toEqual(Array.from({ length: 25 }, (_, index) => `Paged ${24 - index}`));
    expect((await sitePage('paged.example', rui)).site.storyCount).toBe(25);
  });

  it("orders the hottest by the hot feed's score, over the site's stories of the last 30 days", async () => {
    // Prepare: 30 likes in 3 hours beat 60 over two days; a quiet hour-old story sits between
    const on = (slug: string) => ({ url: `https://hot.example/${slug}` });
    await storyInTable(ana, 'Old favourite', hoursAgo(48), { ...on('favourite'), likeCount: 60 });
    await storyInTable(ana, 'Riser', hoursAgo(3), { ...on('riser'), likeCount: 30 });
    await storyInTable(ana, 'Quiet', hoursAgo(1), on('quiet'));
    await storyInTable(ana, 'Last season', hoursAgo(24 * 40), { ...on('last-season'), likeCount: 500 });

    // Act
    const hot = await allTitles('hot.example', rui, 'hot');
    const newest = await allTitles('hot.example', rui, 'new');
    const visitor = await api.call(routes.readSiteFeed, { params: { host: 'hot.example' }, query: { sort: 'hot' } });

    // Assess
    expect(hot).toEqual(['Riser', 'Quiet', 'Old favourite']);
    expect(newest).toEqual(['Quiet', 'Riser', 'Old favourite', 'Last season']);
    expectOk(visitor);
    expect(visitor.body.site.storyCount).toBe(4);
    expect(visitor.body.items.map((story) => story.title)).toEqual(hot);
  });

  it('pages the hottest by cursor too', async () => {
    // Prepare
    for (let index = 0; index < 22; index += 1) {
      await storyInTable(ana, `Warm ${index}`, hoursAgo(30 - index), { url: `https://warm.example/${index}`, likeCount: 5 });
    }

    // Act
    const hot = await allTitles('warm.example', rui, 'hot');

    // Assess: equal likes, so the newer is hotter
    expect(hot).toEqual(Array.from({ length: 22 }, (_, index) => `Warm ${21 - index}`));
  });
});

describe('refusals', () => {
  it('answers 400 for a host that is no site name, and 404 with a message for a site nobody shared from', async () => {
    // Act
    const notAHost = await Promise.all(
      ['under_score.example', 'two..dots.example', '-leading.example', `${'a'.repeat(64)}.example`, 'space d.example'].map(
        (host) => api.call(routes.readSiteFeed, { params: { host } }),
      ),
    );
    const unknown = await api.call(routes.readSiteFeed, { params: { host: 'nobody-shares-from.example' } });

    // Assess
    for (const answer of notAHost) expectError(answer, 400);
    expect(notAHost[0]?.text).toContain('That is not a site name (such as example.com)');
    expectError(unknown, 404, 'NOT_FOUND');
    expect((unknown.body as { message: string }).message).toBe('No story has been shared from nobody-shares-from.example yet.');
  });

  it("refuses an unknown sort, another site's cursor and a newest-first cursor for the hottest", async () => {
    // Prepare
    const reader = await api.signIn('site-cursors');
    const paged = await sitePage('paged.example', reader);
    const cursor = paged.nextCursor as string;

    // Act
    const badSort = await api.call(routes.readSiteFeed, { params: { host: 'paged.example' }, query: { sort: 'top' } as never });
    const otherSite = await api.call(routes.readSiteFeed, { params: { host: 'burst.example' }, query: { cursor } });
    const otherSort = await api.call(routes.readSiteFeed, { params: { host: 'paged.example' }, query: { sort: 'hot', cursor } });

    // Assess
    expectError(badSort, 400);
    expectError(otherSite, 400, 'BAD_REQUEST');
    expectError(otherSort, 400, 'BAD_REQUEST');
  });
});

describe('the backfill of stories shared before sites were kept', () => {
  it('puts them on their site page and in its count once, however often it runs', async () => {
    // Prepare: a story as it was stored before (no site item)
    const db = getDb();
    const reader = await api.signIn('site-backfill');
    await db.entities.story
      .create({
        storyId: 'oldstory1',
        url: 'https://www.before.example/old',
        canonicalUrl: 'https://www.before.example/old',
        title: 'From before',
        source: 'page',
        sharerId: reader.userId,
        createdAt: hoursAgo(24 * 90).toISOString(),
      })
      .go();
    const before = await api.call(routes.readSiteFeed, { params: { host: 'before.example' }, as: reader });

    // Act
    const first = await indexStorySites(db);
    const second = await indexStorySites(db);
    const after = await sitePage('before.example', reader);

    // Assess
    expectError(before, 404);
    expect(first).toBe(1);
    expect(second).toBe(0);
    expect(after.site.storyCount).toBe(1);
    expect(after.items.map((story) => story.title)).toEqual(['From before']);
    expect((await sitePage('paged.example', reader)).site.storyCount).toBe(25);
  });
});
