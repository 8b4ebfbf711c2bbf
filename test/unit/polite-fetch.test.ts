import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SafeFetchResult, UnexpectedStatus } from '../../functions/lib/http/safe-fetch';
import {
  COLLECTOR_USER_AGENT,
  createPoliteFetch,
  DisallowedByRobots,
  RobotsUnreachable,
  HostBudgetSpent,
  type RawFetch,
} from '../../functions/ranking/lib/sources/polite-fetch';
import { NotModified } from '../../functions/ranking/lib/sources/source-adapter';

type Reply = { body: string; etag?: string } | { status: number; retryAfterSeconds?: number };

/**
 * A web of scripted replies on a fake clock: each address answers its replies in turn (the last
 * one again after that), sleeping advances the clock, and every request is recorded with the time
 * it was made and how many were in flight to its host.
 */
function fakeWeb(replies: Record<string, Reply[]>) {
  let now = Date.parse('2026-11-26T10:00:00.000Z');
  const requests: { url: string; at: number; headers: Record<string, string>; userAgent: string; inFlight: number }[] = [];
  const inFlight = new Map<string, number>();
  const served = new Map<string, number>();
  const fetch: RawFetch = async (url, { userAgent, headers }) => {
    const host = new URL(url).host;
    inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
    requests.push({ url, at: now, headers, userAgent, inFlight: inFlight.get(host) ?? 0 });
    // Each answer takes 100 ms of the fake clock's time.
    await Promise.resolve();
    now += 100;
    inFlight.set(host, (inFlight.get(host) ?? 1) - 1);
    const script = replies[url] ?? [{ status: 404 }];
    const index = served.get(url) ?? 0;
    served.set(url, index + 1);
    const reply = script[Math.min(index, script.length - 1)] as Reply;
    if ('status' in reply) throw new UnexpectedStatus(reply.status, reply.retryAfterSeconds);
    const result: SafeFetchResult = {
      url,
      contentType: 'text/plain',
      body: reply.body,
      ...(reply.etag ? { etag: reply.etag } : {}),
    };
    return result;
  };
  return {
    fetch,
    requests,
    clock: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const ROBOTS_ALLOW_ALL = { body: 'User-agent: *\nAllow: /\n' };

afterEach(() => {
  vi.useRealTimers();
});

describe('the polite fetch', () => {
  it('reads robots.txt once per host, obeys the group that names us, and says who it is', async () => {
    // Prepare
    const web = fakeWeb({
      'https://blog.example/robots.txt': [{ body: 'User-agent: *\nDisallow: /\n\nUser-agent: TopPubsBot\nDisallow: /drafts/\n' }],
      'https://blog.example/feed': [{ body: '<rss/>' }],
      'https://blog.example/about': [{ body: 'about' }],
    });
    const fetch = createPoliteFetch({ fetch: web.fetch, clock: web.clock, sleep: web.sleep });

    // Act
    const feed = await fetch('https://blog.example/feed', { accept: '*/*' });
    const about = await fetch('https://blog.example/about', { accept: '*/*' });
    const draft = await fetch('https://blog.example/drafts/secret', { accept: '*/*' }).catch((error: unknown) => error);

    // Assess
    expect(feed.body).toBe('<rss/>');
    expect(about.body).toBe('about');
    expect(draft).toBeInstanceOf(DisallowedByRobots);
    expect(web.requests.map((request) => request.url)).toEqual([
      'https://blog.example/robots.txt',
      'https://blog.example/feed',
      'https://blog.example/about',
    ]);
    expect(new Set(web.requests.map((request) => request.userAgent))).toEqual(new Set([COLLECTOR_USER_AGENT]));
  });

  it('reads everything when robots.txt is missing, and nothing when it fails', async () => {
    // Prepare
    const web = fakeWeb({
      'https://open.example/robots.txt': [{ status: 404 }],
      'https://open.example/feed': [{ body: 'open' }],
      'https://down.example/robots.txt': [{ status: 503 }],
      'https://down.example/feed': [{ body: 'never read' }],
    });
    const fetch = createPoliteFetch({ fetch: web.fetch, clock: web.clock, sleep: web.sleep });

    // Act
    const open = await fetch('https://open.example/feed', { accept: '*/*' });
    const down = await fetch('https://down.example/feed', { accept: '*/*' }).catch((error: unknown) => error);

    // Assess
    expect(open.body).toBe('open');
    expect(down).toBeInstanceOf(RobotsUnreachable);
    expect(web.requests.some((request) => request.url === 'https://down.example/feed')).toBe(false);
  });

  it('asks one host one thing at a time, spaced by the interval or a longer Crawl-delay, and other hosts meanwhile', async () => {
    // Prepare: virtual time, so that the two hosts' waits run side by side as they would
    vi.useFakeTimers({ now: Date.parse('2026-11-26T10:00:00.000Z'), toFake: ['setTimeout', 'Date'] });
    const requests: { host: string; path: string; at: number }[] = [];
    const inFlight = new Map<string, number>();
    let mostInFlight = 0;
    const fetch = createPoliteFetch({
      minIntervalMs: 1_000,
      fetch: async (url) => {
        const { host, pathname } = new URL(url);
        requests.push({ host, path: pathname, at: Date.now() });
        inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
        mostInFlight = Math.max(mostInFlight, inFlight.get(host) ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 100));
        inFlight.set(host, (inFlight.get(host) ?? 1) - 1);
        const body = pathname === '/robots.txt' ? (host === 'slow.example' ? 'User-agent: *\nCrawl-delay: 5\n' : '') : pathname;
        return { url, contentType: 'text/plain', body };
      },
    });

    // Act: six requests at once
    const all = Promise.all(
      ['a', 'b', 'c'].flatMap((page) => [
        fetch(`https://slow.example/${page}`, { accept: '*/*' }),
        fetch(`https://fast.example/${page}`, { accept: '*/*' }),
      ]),
    );
    await vi.runAllTimersAsync();
    await all;

    // Assess
    const times = (host: string) =>
      requests.filter((request) => request.host === host && request.path !== '/robots.txt').map((request) => request.at);
    const gaps = (values: number[]) => values.slice(1).map((value, index) => value - (values[index] as number));
    expect(mostInFlight).toBe(1);
    expect(gaps(times('slow.example')).every((gap) => gap >= 5_000)).toBe(true);
    expect(gaps(times('fast.example')).every((gap) => gap >= 1_000 && gap < 2_000)).toBe(true);
    // The fast host was done before the slow one had its second page.
    expect(Math.max(...times('fast.example'))).toBeLessThan(times('slow.example')[1] as number);
  });

  it('waits as long as Retry-After asks and tries again, but gives up on a wait too long or a status that will not change', async () => {
    // Prepare
    const web = fakeWeb({
      'https://busy.example/robots.txt': [ROBOTS_ALLOW_ALL],
      'https://busy.example/feed': [{ status: 429, retryAfterSeconds: 20 }, { body: 'after the wait' }],
      'https://busy.example/closed': [{ status: 429, retryAfterSeconds: 3_600 }],
      'https://busy.example/missing': [{ status: 404 }],
      'https://busy.example/broken': [{ status: 500 }],
    });
    const fetch = createPoliteFetch({
      fetch: web.fetch,
      clock: web.clock,
      sleep: web.sleep,
      maxRetries: 2,
      maxWaitMs: 60_000,
      random: () => 1,
    });

    // Act
    const started = web.clock();
    const feed = await fetch('https://busy.example/feed', { accept: '*/*' });
    const waited = web.clock() - started;
    const closed = await fetch('https://busy.example/closed', { accept: '*/*' }).catch((error: unknown) => error);
    const missing = await fetch('https://busy.example/missing', { accept: '*/*' }).catch((error: unknown) => error);
    const broken = await fetch('https://busy.example/broken', { accept: '*/*' }).catch((error: unknown) => error);

    // Assess
    expect(feed.body).toBe('after the wait');
    expect(waited).toBeGreaterThanOrEqual(20_000);
    expect(closed).toMatchObject({ status: 429, retryAfterSeconds: 3_600 });
    expect(missing).toMatchObject({ status: 404 });
    expect(broken).toMatchObject({ status: 500 });
    const count = (url: string) => web.requests.filter((request) => request.url === url).length;
    expect([
      count('https://busy.example/closed'),
      count('https://busy.example/missing'),
      count('https://busy.example/broken'),
    ]).toEqual([1, 1, 3]);
  });

  it('sends the ETag back and reuses the document when the server answers 304 Not Modified', async () => {
    // Prepare
    const web = fakeWeb({
      'https://feeds.example/robots.txt': [ROBOTS_ALLOW_ALL],
      'https://feeds.example/feed': [{ body: '<rss>v1</rss>', etag: '"v1"' }, { status: 304 }],
    });
    const fetch = createPoliteFetch({ fetch: web.fetch, clock: web.clock, sleep: web.sleep });

    // Act
    const first = await fetch('https://feeds.example/feed', { accept: '*/*' });
    const second = await fetch('https://feeds.example/feed', { accept: '*/*' });

    // Assess
    expect(second).toEqual(first);
    const feedRequests = web.requests.filter((request) => request.url.endsWith('/feed'));
    expect(feedRequests.map((request) => request.headers['if-none-match'])).toEqual([undefined, '"v1"']);
  });

  it('sends back validators kept from an earlier run, and says NotModified on a 304 instead of failing', async () => {
    // Prepare: yesterday's read left the feed's ETag and Last-Modified; today it has not changed.
    const web = fakeWeb({
      'https://feeds.example/robots.txt': [ROBOTS_ALLOW_ALL],
      'https://feeds.example/feed': [{ status: 304 }],
      'https://feeds.example/other': [{ body: '<rss>new</rss>', etag: '"n1"' }],
    });
    const fetch = createPoliteFetch({ fetch: web.fetch, clock: web.clock, sleep: web.sleep });
    const yesterday = { etag: '"v1"', lastModified: 'Wed, 25 Nov 2026 08:00:00 GMT' };

    // Act
    const unchanged = await fetch('https://feeds.example/feed', { accept: '*/*', validators: yesterday }).catch(
      (error: unknown) => error,
    );
    const changed = await fetch('https://feeds.example/other', { accept: '*/*', validators: { etag: '"old"' } });

    // Assess
    expect(unchanged).toBeInstanceOf(NotModified);
    const feedRequest = web.requests.find((request) => request.url.endsWith('/feed'));
    expect(feedRequest?.headers).toEqual({ 'if-none-match': '"v1"', 'if-modified-since': 'Wed, 25 Nov 2026 08:00:00 GMT' });
    expect(changed).toMatchObject({ body: '<rss>new</rss>', validators: { etag: '"n1"' } });
  });

  it('fails a 304 answered to a request that sent no validators, as the server error it is', async () => {
    // Prepare
    const web = fakeWeb({ 'https://feeds.example/robots.txt': [ROBOTS_ALLOW_ALL], 'https://feeds.example/feed': [{ status: 304 }] });
    const fetch = createPoliteFetch({ fetch: web.fetch, clock: web.clock, sleep: web.sleep });

    // Act
    const answer = await fetch('https://feeds.example/feed', { accept: '*/*' }).catch((error: unknown) => error);

    // Assess
    expect(answer).toBeInstanceOf(UnexpectedStatus);
    expect(answer).toMatchObject({ status: 304 });
  });

  it("stops asking a host once the day's budget is spent, robots.txt included, and starts again the next day", async () => {
    // Prepare
    const web = fakeWeb({
      'https://small.example/robots.txt': [ROBOTS_ALLOW_ALL],
      'https://small.example/a': [{ body: 'a' }],
      'https://small.example/b': [{ body: 'b' }],
    });
    const fetch = createPoliteFetch({ fetch: web.fetch, clock: web.clock, sleep: web.sleep, dailyBudgetPerHost: 2 });

    // Act
    await fetch('https://small.example/a', { accept: '*/*' });
    const spent = await fetch('https://small.example/b', { accept: '*/*' }).catch((error: unknown) => error);
    web.advance(24 * 3_600_000);
    const nextDay = await fetch('https://small.example/b', { accept: '*/*' });

    // Assess
    expect(spent).toBeInstanceOf(HostBudgetSpent);
    expect(spent).toHaveProperty('message', "Today's budget of requests to small.example is spent");
    expect(nextDay.body).toBe('b');
  });
});
