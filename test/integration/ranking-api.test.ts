import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardPage, BoardScreen, RankedPublication } from '../../shared/schemas/ranking';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

const API = '/api/i/toppubs';
let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});

afterAll(async () => {
  await runtime?.close();
});

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

const isSortedBy = (items: RankedPublication[], value: (item: RankedPublication) => number) =>
  items.every((item, index) => index === 0 || value(items[index - 1] as RankedPublication) >= value(item));

describe('the ranking site API on the local runtime', () => {
  it('answers the health check', async () => {
    // Act
    const response = await runtime.get('/api/health');

    // Assess
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok' });
  });

  it('shows the most followed publications in rank order with SEO data', async () => {
    // Act
    const response = await runtime.get(`${API}/show/home`);
    const screen = await json<BoardScreen>(response);

    // Assess
    expect(response.status).toBe(200);
    expect(screen.seo.title).toContain('Most followed publications');
    expect(screen.page.items).toHaveLength(20);
    expect(screen.page.items.map((item) => item.rank)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(isSortedBy(screen.page.items, (item) => item.followers)).toBe(true);
    expect(screen.page.pageInfo.total).toBe(1_200);
    expect(screen.popularTopics.length).toBeGreaterThan(5);
  });

  it('keeps dormant publications on the all-time board, labelled, and off the active board', async () => {
    // Act
    const all = await json<BoardPage>(await runtime.get(`${API}/load/pubs?limit=100`));
    const active = await json<BoardPage>(await runtime.get(`${API}/load/pubs?active=true&limit=100`));

    // Assess
    expect(all.items.some((item) => !item.isActive)).toBe(true);
    expect(active.items.every((item) => item.isActive)).toBe(true);
    expect(active.pageInfo.total).toBeLessThan(all.pageInfo.total);
    expect(isSortedBy(active.items, (item) => item.followers)).toBe(true);
  });

  it('ranks the fastest growing by followers gained over 30 days, with the percentage', async () => {
    // Act
    const screen = await json<BoardScreen>(await runtime.get(`${API}/show/growth`));

    // Assess
    expect(screen.seo.title).toContain('Fastest growing');
    expect(isSortedBy(screen.page.items, (item) => item.gained30d)).toBe(true);
    const top = screen.page.items[0] as RankedPublication;
    expect(top.gained30d).toBe(top.followers - top.followers30dAgo);
    expect(top.growthPct30d).toBeCloseTo((top.gained30d / top.followers30dAgo) * 100, 1);
  });

  it('filters a board by topic and says when a topic does not exist', async () => {
    // Prepare
    const topics = await json<{ items: { tag: string; publicationCount: number }[] }>(await runtime.get(`${API}/topics`));
    const topic = topics.items[0] as { tag: string; publicationCount: number };

    // Act
    const page = await json<BoardPage>(await runtime.get(`${API}/load/growthPubs?topic=${topic.tag}&limit=50`));
    const missing = await runtime.get(`${API}/load/pubs?topic=no-such-topic`);

    // Assess
    expect(page.pageInfo.total).toBe(topic.publicationCount);
    expect(page.items.every((item) => item.topics.includes(topic.tag))).toBe(true);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "There is no topic called 'no-such-topic'.", code: 'NOT_FOUND' });
  });

  it('pages through a board by page, by offset and from the bottom', async () => {
    // Act
    const second = await json<BoardPage>(await runtime.get(`${API}/load/pubs?page=2`));
    const offset = await json<BoardPage>(await runtime.get(`${API}/load/pubs?from=95&limit=10`));
    const bottom = await json<BoardPage>(await runtime.get(`${API}/load/pubs?sortOrder=asc&limit=3`));

    // Assess
    expect(second.items.map((item) => item.rank)).toEqual(Array.from({ length: 20 }, (_, index) => index + 21));
    expect(offset.items.map((item) => item.rank)).toEqual(Array.from({ length: 10 }, (_, index) => index + 96));
    expect(bottom.items.map((item) => item.rank)).toEqual([1_200, 1_199, 1_198]);
    expect(second.pageInfo).toMatchObject({ page: 2, from: 20, limit: 20, hasMore: true });
  });

  it('caps a huge limit and refuses negative paging with the field named', async () => {
    // Act
    const capped = await json<BoardPage>(await runtime.get(`${API}/load/pubs?limit=100000`));
    const negative = await runtime.get(`${API}/load/pubs?from=-1`);

    // Assess
    expect(capped.items).toHaveLength(100);
    expect(negative.status).toBe(400);
    expect(await negative.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: [{ in: 'query', field: 'from', message: 'Must be 0 or more' }],
    });
  });

  it('lists topics with counts and pages the topics screen', async () => {
    // Act
    const screen = await json<{ seo: { title: string }; topics: { items: unknown[]; pageInfo: { total: number } } }>(
      await runtime.get(`${API}/show/topics?page=2&limit=10`),
    );

    // Assess
    expect(screen.seo.title).toContain('Topics');
    expect(screen.topics.items).toHaveLength(10);
    expect(screen.topics.pageInfo.total).toBeGreaterThan(50);
  });

  it('finds a seeded publication by the start of its name and by a word in it', async () => {
    // Prepare
    const target = (await json<BoardPage>(await runtime.get(`${API}/load/pubs?from=37&limit=1`))).items[0] as RankedPublication;
    const lastWord = target.name.split(' ').at(-1) as string;

    // Act
    const byPrefix = await json<{ items: RankedPublication[] }>(
      await runtime.get(`${API}/search?q=${encodeURIComponent(target.name.slice(0, 6))}`),
    );
    const byWord = await json<{ items: RankedPublication[]; total: number }>(
      await runtime.get(`${API}/search?q=${encodeURIComponent(lastWord.toLowerCase())}&limit=100`),
    );
    const empty = await runtime.get(`${API}/search?q=`);

    // Assess
    expect(byPrefix.items.map((item) => item.slug)).toContain(target.slug);
    expect(byWord.items.map((item) => item.slug)).toContain(target.slug);
    expect(
      isSortedBy(
        byWord.items.filter((item) => item.name.toLowerCase() !== lastWord.toLowerCase()),
        (item) => item.followers,
      ),
    ).toBe(true);
    expect(byPrefix.items.find((item) => item.slug === target.slug)?.rank).toBe(38);
    expect(empty.status).toBe(400);
  });

  it('shows one publication with its daily follower history, and 404 for an unknown slug', async () => {
    // Prepare
    const target = (await json<BoardPage>(await runtime.get(`${API}/load/pubs?limit=1`))).items[0] as RankedPublication;

    // Act
    const response = await runtime.get(`${API}/pub/${target.slug}`);
    const detail = await json<{ publication: { ranks: { followers: number } }; history: { day: string; followers: number }[] }>(
      response,
    );
    const missing = await runtime.get(`${API}/pub/no-such-publication`);

    // Assess
    expect(response.status).toBe(200);
    expect(detail.publication.ranks.followers).toBe(1);
    expect(detail.history.length).toBeGreaterThanOrEqual(85);
    expect(detail.history.at(-1)?.followers).toBe(target.followers);
    expect(missing.status).toBe(404);
  });

  it('lets browsers and CloudFront reuse board answers until the next ranking run', async () => {
    // Prepare
    const first = await runtime.get(`${API}/load/pubs?page=3`);
    const etag = first.headers.get('etag') as string;

    // Act
    const revalidated = await runtime.get(`${API}/load/pubs?page=3`, { 'if-none-match': etag });

    const again = await runtime.get(`${API}/load/pubs?page=3`);

    // Assess
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=60/);
    expect(again.headers.get('x-cache')).toBe('Hit from local edge');
    expect(await again.text()).toBe(await first.text());
    expect(etag).toMatch(/^W\/".+"$/);
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
  });

  it('answers unknown endpoints with 404 and wrong methods with 405', async () => {
    // Act
    const unknown = await runtime.get(`${API}/nope`);
    const wrongMethod = await runtime.post(`${API}/show/home`, {});

    // Assess
    expect(unknown.status).toBe(404);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });
});
