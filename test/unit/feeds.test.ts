import { runInNewContext } from 'node:vm';
import { parseFeed } from '@rowanmanning/feed-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { buildFeed, feedDocument, type Syndication } from '../../functions/lib/feeds/syndication';
import { createHandler } from '../../functions/lib/http/create-handler';
import { nextBoardNews, NEWS_ENTRIES_KEPT, NEWS_TOP_PLACES } from '../../functions/ranking/lib/domain/board-news';
import type { Standing } from '../../functions/ranking/lib/domain/standing';
import { isPagePath, PAGE_REQUEST_FUNCTION_CODE, type ViewerRequest } from '../../infra/web-edge-policy';
import { FEED_FORMATS } from '../../shared/feeds';
import { defineRoute } from '../../shared/routes/define-route';
import * as z from '../../shared/zod';

const ORIGIN = 'https://toppubs.example';

const syndication = (overrides: Partial<Syndication> = {}): Syndication => ({
  title: 'Hot stories · TopPubs',
  description: 'The stories readers like most lately.',
  selfUrl: `${ORIGIN}/feeds/stories/hot.rss`,
  siteUrl: `${ORIGIN}/stories`,
  updated: new Date('2026-03-02T10:00:00Z'),
  items: [
    {
      id: `${ORIGIN}/api/i/stories/story/abc123/go`,
      title: 'Why <script> & "quotes" ]]> break feeds',
      link: 'https://blog.example.com/post?a=1&b=2',
      date: new Date('2026-03-02T09:00:00Z'),
      summary: 'Shared by <Ana> & friends\u0001',
    },
    {
      id: `${ORIGIN}/api/i/stories/story/def456/go`,
      title: 'A calm story',
      link: 'https://blog.example.com/calm',
      date: new Date('2026-03-01T09:00:00Z'),
    },
  ],
  ...overrides,
});

describe('the feed module', () => {
  it.each(FEED_FORMATS)('writes %s that a feed reader reads back with every required element', (format) => {
    // Prepare
    const selfUrl = `${ORIGIN}/feeds/stories/hot.${format}`;

    // Act
    const xml = buildFeed(syndication({ selfUrl }), format);
    const feed = parseFeed(xml);

    // Assess
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(feed.meta.type).toBe(format);
    expect(feed.title).toBe('Hot stories · TopPubs');
    expect(feed.url).toBe(`${ORIGIN}/stories`);
    expect(feed.self).toBe(selfUrl);
    expect(feed.updated?.toISOString()).toBe('2026-03-02T10:00:00.000Z');
    if (format === 'rss') expect(feed.description).toBe('The stories readers like most lately.');
    else expect(xml).toContain(`<id>${selfUrl}</id>`);
    expect(
      feed.items.map((item) => ({
        id: item.id,
        title: item.title,
        url: item.url,
        date: (item.published ?? item.updated)?.toISOString(),
      })),
    ).toEqual([
      {
        id: `${ORIGIN}/api/i/stories/story/abc123/go`,
        title: 'Why <script> & "quotes" ]]> break feeds',
        url: 'https://blog.example.com/post?a=1&b=2',
        date: '2026-03-02T09:00:00.000Z',
      },
      {
        id: `${ORIGIN}/api/i/stories/story/def456/go`,
        title: 'A calm story',
        url: 'https://blog.example.com/calm',
        date: '2026-03-01T09:00:00.000Z',
      },
    ]);
    // Plain text stays text: a reader shows the characters, never runs markup, and a control character is dropped.
    expect(xml).not.toMatch(/<script>|<Ana>/);
    expect(xml).not.toContain('\u0001');
    expect(feed.items[0]?.description).toBe('Shared by <Ana> & friends');
  });

  it('answers with the format’s media type, and a strong ETag that changes with the content', () => {
    // Act
    const rss = feedDocument(syndication(), 'rss');
    const atom = feedDocument(syndication(), 'atom');
    const again = feedDocument(syndication(), 'rss');
    const changed = feedDocument(syndication({ title: 'New stories · TopPubs' }), 'rss');

    // Assess
    expect(rss.contentType).toBe('application/rss+xml; charset=utf-8');
    expect(atom.contentType).toBe('application/atom+xml; charset=utf-8');
    expect(rss.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(again.etag).toBe(rss.etag);
    expect(changed.etag).not.toBe(rss.etag);
  });
});

describe('text documents through the request pipeline', () => {
  const route = defineRoute({
    method: 'GET',
    path: '/api/test/feed',
    access: 'public',
    handler: 'test/feed',
    summary: 'A feed.',
    response: z.string(),
    cacheSeconds: 60,
  });
  let handler: ReturnType<typeof createHandler<typeof route>> | undefined;
  const call = async (headers: Record<string, string> = {}) => {
    // The pipeline reads the deployment's settings once, when the handler is made.
    process.env.TABLE_NAME ??= 'feeds-unit-test';
    process.env.ALLOWED_ORIGINS ??= ORIGIN;
    handler ??= createHandler(route, async () => feedDocument(syndication(), 'rss'));
    return (await handler(
      {
        version: '2.0',
        routeKey: 'GET /api/test/feed',
        rawPath: '/api/test/feed',
        rawQueryString: '',
        headers,
        isBase64Encoded: false,
        requestContext: { http: { method: 'GET', path: '/api/test/feed' }, requestId: 'r' },
      } as unknown as APIGatewayProxyEventV2,
      { getRemainingTimeInMillis: () => 10_000 } as Context,
    )) as APIGatewayProxyStructuredResultV2;
  };

  it('answers 200 with the ETag and the route’s caching, then 304 with no body to a reader that has it', async () => {
    // Act
    const first = await call();
    const etag = String(first.headers?.etag);
    const again = await call({ 'if-none-match': etag });
    const weakened = await call({ 'if-none-match': `"other", W/${etag}` });
    const stale = await call({ 'if-none-match': '"not-it"' });

    // Assess
    expect(first.statusCode).toBe(200);
    expect(first.headers).toMatchObject({
      'content-type': 'application/rss+xml; charset=utf-8',
      'cache-control': 'public, max-age=60, s-maxage=60, stale-while-revalidate=300',
    });
    expect(etag).toMatch(/^"/);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers?.etag).toBe(etag);
    expect(weakened.statusCode).toBe(304);
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(first.body);
  });
});

const standing = (slug: string, followers: number, followers7dAgo = followers): Standing => ({
  slug,
  name: `Publication ${slug}`,
  url: `https://${slug}.example`,
  imageUrl: null,
  topics: [],
  followersKnown: true,
  followers,
  followers7dAgo,
  followers30dAgo: followers7dAgo,
  gained30d: followers - followers7dAgo,
  growthPct30d: null,
  latestPostAt: null,
  isActive: false,
  sparkline: [],
});

describe("the boards' news", () => {
  const board = (count: number, first = 0) =>
    Array.from({ length: count }, (_, index) => standing(`p${first + index}`, 10_000 - first - index));
  const monday = new Date('2026-03-09T00:05:00Z');

  it('remembers a most followed top on the first look, then tells each newcomer once, best rank first', () => {
    // Prepare
    const first = nextBoardNews('followers', undefined, board(NEWS_TOP_PLACES + 5), monday);
    const climbers = [standing('new-a', 20_000), ...board(NEWS_TOP_PLACES - 2), standing('new-b', 9_000)];

    // Act
    const second = nextBoardNews('followers', first ?? undefined, climbers, new Date('2026-03-09T01:05:00Z'));
    const unchanged = nextBoardNews('followers', second ?? undefined, [...climbers].reverse(), new Date('2026-03-09T02:05:00Z'));

    // Assess
    expect(first).toEqual({ top: board(NEWS_TOP_PLACES).map((row) => row.slug), entries: [] });
    expect(second?.entries.map(({ slug, rank, at }) => ({ slug, rank, at }))).toEqual([
      { slug: 'new-a', rank: 1, at: '2026-03-09T01:05:00.000Z' },
      { slug: 'new-b', rank: NEWS_TOP_PLACES, at: '2026-03-09T01:05:00.000Z' },
    ]);
    expect(unchanged).toBeNull();
  });

  it('keeps only the latest entries', () => {
    // Prepare: a top that is all new on each of three runs
    let state = nextBoardNews('followers', undefined, board(NEWS_TOP_PLACES), monday);

    // Act
    for (let run = 1; run <= 3; run += 1)
      state = nextBoardNews('followers', state ?? undefined, board(NEWS_TOP_PLACES, run * 1_000), monday);

    // Assess
    expect(state?.entries).toHaveLength(NEWS_ENTRIES_KEPT);
    expect(state?.entries[0]?.slug).toBe('p3000');
  });

  it('names the week’s fastest growing once, at the first run of the next week', () => {
    // Prepare
    const rows = [
      standing('slow', 50_000, 49_990),
      standing('fast', 1_000, 400),
      standing('flat', 9_000),
      standing('mid', 2_000, 1_900),
    ];

    // Act
    const recorded = nextBoardNews('growth', undefined, rows, monday);
    const laterThatWeek = nextBoardNews('growth', recorded ?? undefined, rows, new Date('2026-03-15T23:00:00Z'));
    const nextWeek = nextBoardNews('growth', recorded ?? undefined, rows, new Date('2026-03-16T00:05:00Z'));

    // Assess
    expect(recorded?.week).toBe('2026-03-02');
    expect(recorded?.entries.map(({ slug, rank, gained }) => ({ slug, rank, gained }))).toEqual([
      { slug: 'fast', rank: 1, gained: 600 },
      { slug: 'mid', rank: 2, gained: 100 },
      { slug: 'slow', rank: 3, gained: 10 },
    ]);
    expect(laterThatWeek).toBeNull();
    expect(nextWeek?.week).toBe('2026-03-09');
    expect(nextWeek?.entries).toHaveLength(6);
  });
});

describe('the edge function of the feeds', () => {
  const run = (uri: string, querystring: ViewerRequest['querystring'] = {}) =>
    runInNewContext(
      `${PAGE_REQUEST_FUNCTION_CODE};handler(${JSON.stringify({ request: { uri, querystring } })})`,
    ) as ViewerRequest;

  it('sends each feed address to its route, without any query parameter the address did not make', () => {
    // Act
    const answers = [
      run('/feeds/stories/hot.rss', { utm_source: { value: 'x' } }),
      run('/feeds/stories/new.atom'),
      run('/feeds/@jane_doe.rss'),
      run('/feeds/boards/most-followed.atom'),
      run('/feeds/site/www.example.com.atom'),
      run('/feeds/topic/data-science/fastest-growing.rss', { topic: { value: 'other' } }),
      run('/feeds/stories/old.rss'),
    ];

    // Assess
    expect(answers.map((answer) => [answer.uri, answer.querystring])).toEqual([
      ['/api/i/feeds/stories/hot/rss', {}],
      ['/api/i/feeds/stories/new/atom', {}],
      ['/api/i/feeds/user/jane_doe/rss', {}],
      ['/api/i/feeds/board/most-followed/atom', {}],
      ['/api/i/feeds/site/www.example.com/atom', {}],
      ['/api/i/feeds/board/fastest-growing/rss', { topic: { value: 'data-science' } }],
      // No feed: a page path like any other, which the renderer answers with the app shell.
      ['/api/i/web/page', { path: { value: '%2Ffeeds%2Fstories%2Fold.rss' } }],
    ]);
    expect(isPagePath('/feeds/stories/hot.rss')).toBe(true);
    expect(isPagePath('/feeds')).toBe(false);
  });
});
