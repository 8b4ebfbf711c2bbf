import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QueryOf, routes } from '../../shared/routes';
import type { RankedPublication } from '../../shared/schemas/ranking';
import { type ApiClient, createApiClient, expectError, expectOk } from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

/** Enough for several pages, dormant and active publications and dozens of topics; more only costs seeding time. */
const PUBLICATIONS = 400;

let runtime: TestRuntime;
let api: ApiClient;

beforeAll(async () => {
  // The one suite about the boards themselves: it reads ranks, totals and topics of a real data set.
  runtime = await startTestRuntime({ seedPublications: PUBLICATIONS });
  api = createApiClient(runtime);
});

afterAll(async () => {
  await runtime?.close();
});

const isSortedBy = (items: RankedPublication[], value: (item: RankedPublication) => number) =>
  items.every((item, index) => index === 0 || value(items[index - 1] as RankedPublication) >= value(item));

const loadPubs = (query: QueryOf<typeof routes.loadPubs>) => api.call(routes.loadPubs, { query });

/** A page of the most-followed board, failing the test unless it is one. */
async function boardPage(query: QueryOf<typeof routes.loadPubs>) {
  const answer = await loadPubs(query);
  expectOk(answer);
  return answer.body;
}

describe('the ranking site API on the local runtime', () => {
  it('answers the health check', async () => {
    // Act
    const health = await api.call(routes.health);

    // Assess
    expectOk(health);
    expect(health.body).toMatchObject({ status: 'ok' });
  });

  it('shows the most followed publications in rank order with SEO data', async () => {
    // Act
    const answer = await api.call(routes.showHome);

    // Assess
    expectOk(answer);
    const screen = answer.body;
    expect(screen.seo.title).toContain('Most followed publications');
    expect(screen.page.items).toHaveLength(20);
    expect(screen.page.items.map((item) => item.rank)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(isSortedBy(screen.page.items, (item) => item.followers)).toBe(true);
    expect(screen.page.pageInfo.total).toBe(PUBLICATIONS);
    expect(screen.popularTopics.length).toBeGreaterThan(5);
  });

  it('keeps dormant publications on the all-time board, labelled, and off the active board', async () => {
    // Act
    const all = await boardPage({ limit: 100 });
    const active = await boardPage({ active: 'true', limit: 100 });

    // Assess
    expect(all.items.some((item) => !item.isActive)).toBe(true);
    expect(active.items.every((item) => item.isActive)).toBe(true);
    expect(active.pageInfo.total).toBeLessThan(all.pageInfo.total);
    expect(isSortedBy(active.items, (item) => item.followers)).toBe(true);
  });

  it('describes the active board by the number of active publications it ranks', async () => {
    // Act
    const answer = await api.call(routes.showHome, { query: { active: 'true' } });

    // Assess
    expectOk(answer);
    const count = answer.body.page.pageInfo.total.toLocaleString('en-US');
    expect(answer.body.seo.description).toContain(`${count} publications ranked by followers`);
    expect(answer.body.seo.description).toMatch(/Updated hourly\.$/);
  });

  it('ranks the fastest growing by followers gained over 30 days, with the percentage', async () => {
    // Act
    const answer = await api.call(routes.showGrowth);

    // Assess
    expectOk(answer);
    const screen = answer.body;
    expect(screen.seo.title).toContain('Fastest growing');
    expect(isSortedBy(screen.page.items, (item) => item.gained30d)).toBe(true);
    const top = screen.page.items[0] as RankedPublication;
    expect(top.gained30d).toBe(top.followers - top.followers30dAgo);
    expect(top.growthPct30d).toBeCloseTo((top.gained30d / top.followers30dAgo) * 100, 1);
  });

  it('filters a board by topic and says when a topic does not exist', async () => {
    // Prepare
    const topics = await api.call(routes.listTopics);
    expectOk(topics);
    const topic = topics.body.items[0] as { tag: string; publicationCount: number };

    // Act
    const page = await api.call(routes.loadGrowthPubs, { query: { topic: topic.tag, limit: 50 } });
    const missing = await loadPubs({ topic: 'no-such-topic' });

    // Assess
    expectOk(page);
    expect(page.body.pageInfo.total).toBe(topic.publicationCount);
    expect(page.body.items.every((item) => item.topics.includes(topic.tag))).toBe(true);
    expectError(missing, 404);
    expect(missing.body).toEqual({ message: "There is no topic called 'no-such-topic'.", code: 'NOT_FOUND' });
  });

  it('pages through a board by page, by offset and from the bottom', async () => {
    // Act
    const second = await boardPage({ page: 2 });
    const offset = await boardPage({ from: 95, limit: 10 });
    const bottom = await boardPage({ sortOrder: 'asc', limit: 3 });

    // Assess
    expect(second.items.map((item) => item.rank)).toEqual(Array.from({ length: 20 }, (_, index) => index + 21));
    expect(offset.items.map((item) => item.rank)).toEqual(Array.from({ length: 10 }, (_, index) => index + 96));
    expect(bottom.items.map((item) => item.rank)).toEqual([PUBLICATIONS, PUBLICATIONS - 1, PUBLICATIONS - 2]);
    expect(second.pageInfo).toMatchObject({ page: 2, from: 20, limit: 20, hasMore: true });
  });

  it('caps a huge limit and refuses negative paging with the field named', async () => {
    // Act
    const capped = await boardPage({ limit: 100_000 });
    const negative = await loadPubs({ from: -1 });

    // Assess
    expect(capped.items).toHaveLength(100);
    expectError(negative, 400);
    expect(negative.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: [{ in: 'query', field: 'from', message: 'Must be 0 or more' }],
    });
  });

  it('lists topics with counts and pages the topics screen', async () => {
    // Act
    const answer = await api.call(routes.showTopics, { query: { page: 2, limit: 10 } });

    // Assess
    expectOk(answer);
    expect(answer.body.seo.title).toContain('Topics');
    expect(answer.body.topics.items).toHaveLength(10);
    expect(answer.body.topics.pageInfo.total).toBeGreaterThan(50);
  });

  it("names each topic's three most followed publications on the topics screen, as its board ranks them", async () => {
    // Act
    const answer = await api.call(routes.showTopics, { query: { limit: 5 } });
    expectOk(answer);
    const topic = answer.body.topics.items[0] as (typeof answer.body.topics.items)[number];
    const board = await boardPage({ topic: topic.tag, limit: 3 });

    // Assess
    expect(topic.leaders).toEqual(
      board.items.map(({ slug, name, followers, imageUrl }) => ({ slug, name, followers, imageUrl })),
    );
    expect(topic.leaders).toHaveLength(3);
  });

  it('keeps topic names in their real casing and finds a topic asked for in capitals', async () => {
    // Act
    const topics = await api.call(routes.listTopics);
    const capitals = await api.call(routes.showHome, { query: { topic: 'Technology', limit: 1 } });

    // Assess
    expectOk(topics);
    const names = new Map(topics.body.items.map((topic) => [topic.tag, topic.name]));
    expect(names.get('technology')).toBe('Technology');
    expect(names.get('javascript')).toBe('JavaScript');
    expect(names.get('ux')).toBe('UX');
    expect(topics.body.items.every((topic) => !('leaders' in topic))).toBe(true);
    expectOk(capitals);
    expect(capitals.body.topic).toMatchObject({ tag: 'technology', name: 'Technology' });
    expect(capitals.body.page.board.topic).toBe('technology');
  });

  it('finds a seeded publication by the start of its name and by a word in it', async () => {
    // Prepare
    const target = (await boardPage({ from: 37, limit: 1 })).items[0] as RankedPublication;
    const lastWord = target.name.split(' ').at(-1) as string;

    // Act
    const byPrefix = await api.call(routes.searchPubs, { query: { q: target.name.slice(0, 6) } });
    const byWord = await api.call(routes.searchPubs, { query: { q: lastWord.toLowerCase(), limit: 100 } });
    const empty = await api.call(routes.searchPubs, { query: { q: '' } });

    // Assess
    expectOk(byPrefix);
    expectOk(byWord);
    expect(byPrefix.body.items.map((item) => item.slug)).toContain(target.slug);
    expect(byWord.body.items.map((item) => item.slug)).toContain(target.slug);
    expect(
      isSortedBy(
        byWord.body.items.filter((item) => item.name.toLowerCase() !== lastWord.toLowerCase()),
        (item) => item.followers,
      ),
    ).toBe(true);
    expect(byPrefix.body.items.find((item) => item.slug === target.slug)?.rank).toBe(38);
    expectError(empty, 400);
  });

  it('pages through every search result and narrows them by topic and activity', async () => {
    // Prepare: a common word, so there are several pages.
    const q = 'the';
    const all = await api.call(routes.searchPubs, { query: { q, limit: 100 } });
    expectOk(all);
    const topic = all.body.items[0]?.topics[0] as string;

    // Act
    const first = await api.call(routes.searchPubs, { query: { q, limit: 5 } });
    const second = await api.call(routes.searchPubs, { query: { q, limit: 5, page: 2 } });
    const active = await api.call(routes.searchPubs, { query: { q, limit: 100, active: 'true' } });
    const inTopic = await api.call(routes.searchPubs, { query: { q, limit: 100, topic } });
    const unknownTopic = await api.call(routes.searchPubs, { query: { q, topic: 'no-such-topic' } });
    const badPage = await api.call(routes.searchPubs, { query: { q, page: 0 } });

    // Assess
    expectOk(first);
    expectOk(second);
    expect(first.body.total).toBeGreaterThan(10);
    expect(second.body.pageInfo).toMatchObject({ page: 2, from: 5, limit: 5, total: first.body.total, hasMore: true });
    expect(second.body.items.map((item) => item.slug)).toEqual(all.body.items.slice(5, 10).map((item) => item.slug));
    expectOk(active);
    expect(active.body.items.length).toBeGreaterThan(0);
    expect(active.body.items.every((item) => item.isActive)).toBe(true);
    expect(active.body.total).toBeLessThan(all.body.total);
    expectOk(inTopic);
    expect(inTopic.body.items.every((item) => item.topics.includes(topic))).toBe(true);
    expectOk(unknownTopic);
    expect(unknownTopic.body).toMatchObject({ items: [], total: 0 });
    expectError(badPage, 400);
  });

  it('shows one publication with its ranks on every board, 90 days of follower and rank history, and 404 for an unknown slug', async () => {
    // Prepare
    const target = (await boardPage({ limit: 1 })).items[0] as RankedPublication;

    // Act
    const detail = await api.call(routes.getPublication, { params: { slug: target.slug } });
    const missing = await api.call(routes.getPublication, { params: { slug: 'no-such-publication' } });

    // Assess
    expectOk(detail);
    expect(detail.body.publication.ranks.followers).toBe(1);
    expect(detail.body.boards[0]).toEqual({
      boardId: 'followers.all',
      board: { kind: 'followers', activeOnly: false, topic: null },
      topicName: null,
      rank: 1,
      total: expect.any(Number) as number,
    });
    // One board per topic and kind (and per active-only board when it is active), all ranked; a
    // publication ranked by its followers lists no place by recency.
    expect(detail.body.boards.filter(({ board }) => board.topic).length).toBe(target.topics.length * (target.isActive ? 4 : 2));
    expect(detail.body.publication.ranks.activity).toBeNull();
    // 89 days ranked from the demo's follower history, and today's from the job's own run.
    expect(detail.body.rankHistory).toHaveLength(90);
    expect(detail.body.rankHistory.at(-1)?.ranks['followers.all']).toBe(1);
    expect(detail.body.rankHistory[0]?.ranks['followers.all']).toBeGreaterThanOrEqual(1);
    expect(detail.body.history.length).toBeGreaterThanOrEqual(85);
    expect(detail.body.history.length).toBeLessThanOrEqual(90);
    expect(detail.body.history.at(-1)?.followers).toBe(target.followers);
    // The demo's numbers come through the ingestion API, not from a collected source.
    expect(detail.body.source).toBeNull();
    expectError(missing, 404);
  });

  it('lets browsers and CloudFront reuse board answers until the next ranking run', async () => {
    // Prepare
    const first = await api.call(routes.loadPubs, { query: { page: 3 } });
    const etag = first.headers.get('etag') as string;

    // Act: a conditional request is plain HTTP, outside what the typed client answers.
    const revalidated = await runtime.get(`${routes.loadPubs.path}?page=3`, { 'if-none-match': etag });
    const again = await api.call(routes.loadPubs, { query: { page: 3 } });

    // Assess
    expectOk(first);
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=60/);
    expect(again.headers.get('x-cache')).toBe('Hit from local edge');
    expect(again.text).toBe(first.text);
    expect(etag).toMatch(/^W\/".+"$/);
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
  });

  it('answers unknown endpoints with 404 and wrong methods with 405', async () => {
    // Act: neither request is a route of the table, so they go out as plain HTTP.
    const unknown = await runtime.get('/api/i/toppubs/nope');
    const wrongMethod = await runtime.post(routes.showHome.path, {});

    // Assess
    expect(unknown.status).toBe(404);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });

  it('sends the security headers of every API answer on its own 404, 405 and malformed-path 400 too', async () => {
    // Act
    const answers = await Promise.all([
      runtime.get('/api/i/toppubs/nope'),
      runtime.post(routes.showHome.path, {}),
      runtime.get('/api/i/user/user/find/id/by/username/%E0%A4%A'),
    ]);

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([404, 405, 400]);
    for (const answer of answers) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it("refuses an address or headers longer than CloudFront's limits in the API's error shape", async () => {
    // Act: a query just over the 8,192-byte URL limit, then headers over the 20,480-byte request limit.
    const longAddress = await runtime.get(`${routes.searchPubs.path}?q=${'x'.repeat(8_200)}`);
    const longHeaders = await runtime.get(routes.showHome.path, { 'x-padding': 'x'.repeat(21_000) });

    // Assess
    expect(longAddress.status).toBe(414);
    expect(await longAddress.json()).toEqual({ message: 'The address is too long: at most 8192 bytes.', code: 'URI_TOO_LONG' });
    expect(longHeaders.status).toBe(431);
    expect(await longHeaders.json()).toEqual({
      message: "The request's address and headers are too large: at most 20480 bytes.",
      code: 'REQUEST_TOO_LARGE',
    });
    for (const answer of [longAddress, longHeaders]) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
    }
  });
});
