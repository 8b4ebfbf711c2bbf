import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_APPLICATION_ID } from '../../shared/constants';
import type { StoredAnalyticsEvent } from '../../shared/schemas/analytics';
import { storedAnalyticsEvents } from '../support/analytics';
import { launchBrowser } from '../support/browser';
import { logInByEmailFromModal } from '../support/email-login';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { recordFailedAnswers, shown } from '../support/page-steps';

const TRACK_PATH = '/api/e/analytics/track';
const DESKTOP = { width: 1280, height: 800 };
/** Longer than the page's 3 s wait for idle plus mixpanel's 5 s flush: a page that tracked would have sent by then. */
const QUIET_MS = 10_000;
/**
 * How far the browsers' clocks move at a time: half of mixpanel's shortest wait (its 5 s
 * flush). Whatever a timer starts (fetching mixpanel, a send, a retry) is answered before the
 * pages' time moves on, and the wait that answer starts (5 s or more) ends in a later step.
 */
const STEP_MS = 2_500;
/** The page time a browser may take to deliver what it tracked: mixpanel's retries here need about 35 s. */
const DELIVERY_BUDGET_MS = 180_000;

let runtime: TestRuntime;
let browser: Browser;

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await runtime?.close();
});

interface Tracked {
  name: string;
  properties: Record<string, unknown>;
}

/** One event as both sides can say it: its name and its own properties, keys in order. */
const described = (name: string, properties: Record<string, unknown>) =>
  `${name} ${JSON.stringify(Object.fromEntries(Object.entries(properties).sort(([a], [b]) => a.localeCompare(b))))}`;

/** The events of one mixpanel request: its form field `data`, base64 JSON (one event or a list). */
function eventsOf(request: Request): { event: string }[] {
  const data = new URLSearchParams(request.postData() ?? '').get('data') ?? '';
  const decoded = JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as { event: string } | { event: string }[];
  return Array.isArray(decoded) ? decoded : [decoded];
}

/**
 * A person's browser: what the app tracked (its own announcement of each call, kept across page
 * loads), every request it made, and the mixpanel track requests with what each was answered.
 */
async function openBrowser(options: { privacy?: 'dnt' | 'gpc' } = {}) {
  const context: BrowserContext = await browser.newContext({ viewport: DESKTOP });
  // The page's timers run on a clock the test moves on (letTimePass): time flows as usual, and
  // the waits of the page and of mixpanel (3 s to idle, the 5 s flush, 10 s and more between
  // retries) pass in steps instead of in real time. Every request is still real.
  await context.clock.install();
  const tracked: Tracked[] = [];
  const requests: URL[] = [];
  let inFlight = 0;
  await context.exposeFunction('__recordTracked', (event: Tracked) => tracked.push(event));
  await context.addInitScript((privacy) => {
    if (privacy === 'dnt') Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' });
    if (privacy === 'gpc') Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true });
    window.addEventListener('analytics', (event) => {
      const page = window as unknown as { __recordTracked: (detail: unknown) => Promise<void> };
      void page.__recordTracked((event as CustomEvent).detail);
    });
  }, options.privacy ?? null);
  context.on('request', (request) => {
    requests.push(new URL(request.url()));
    inFlight += 1;
  });
  context.on('requestfinished', () => (inFlight -= 1));
  context.on('requestfailed', () => (inFlight -= 1));
  const page = await context.newPage();
  recordFailedAnswers(page);
  return {
    context,
    page,
    tracked,
    requests,
    /** Requests sent and not yet answered (or failed). */
    inFlight: () => inFlight,
    trackRequests: () => requests.filter((url) => url.pathname === TRACK_PATH),
    mixpanelChunks: () => requests.filter((url) => /mixpanel/i.test(url.pathname)),
  };
}

/** The footer's links used here, and where each leads. */
const FOOTER_LINKS = { About: '/about', Topics: '/topics', 'Fastest growing': '/growing', Active: '/active' } as const;

/** Client-side navigation by the footer's links, as a reader browses: one page view each. */
async function browse(page: Page, links: readonly (keyof typeof FOOTER_LINKS)[]): Promise<void> {
  for (const name of links) {
    await page.getByRole('contentinfo').getByRole('link', { name, exact: true }).click();
    await page.waitForURL((url) => url.pathname === FOOTER_LINKS[name]);
  }
}

type Visitor = Awaited<ReturnType<typeof openBrowser>>;

/**
 * Until the browsers' requests are all answered, and stay so for a moment: a request that a
 * timer or an answer sets off reaches this process a little after the page made it.
 */
async function requestsAnswered(visitors: readonly Visitor[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (let quietChecks = 0; quietChecks < 2;) {
    if (Date.now() > deadline)
      throw new Error(`Requests still unanswered after 20 s: ${visitors.map((visitor) => visitor.inFlight()).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    quietChecks = visitors.every((visitor) => visitor.inFlight() === 0) ? quietChecks + 1 : 0;
  }
}

/**
 * Lets the pages' time pass, STEP_MS at a time, until `done` (asked before each step, with the
 * time passed so far) or `budgetMs` of it: after each step their timers have fired and the
 * requests those made are answered, as if the browsers had stayed open that long. Answers the
 * page time it stepped.
 */
async function letTimePass(
  visitors: readonly Visitor[],
  done: (passedMs: number) => Promise<boolean>,
  budgetMs = DELIVERY_BUDGET_MS,
): Promise<number> {
  let passed = 0;
  await requestsAnswered(visitors);
  while (passed < budgetMs && !(await done(passed))) {
    await Promise.all(visitors.map((visitor) => visitor.context.clock.runFor(STEP_MS)));
    passed += STEP_MS;
    await requestsAnswered(visitors);
  }
  return passed;
}

/** A browser that must send nothing: it browses a little, then stays open (letTimePass) long enough to have sent. */
async function browseWithoutTracking(options: { privacy?: 'dnt' | 'gpc'; path: string }) {
  const visitor = await openBrowser(options);
  await visitor.page.goto(`${runtime.url}${options.path}`);
  await browse(visitor.page, ['About', 'Topics']);
  return visitor;
}

/** What a browser that must send nothing announced, loaded and sent. */
function quietResult(visitor: Visitor) {
  return {
    announced: visitor.tracked.map((event) => event.name),
    trackRequests: visitor.trackRequests().length,
    mixpanelChunks: visitor.mixpanelChunks().length,
  };
}

describe('product analytics from the real web app', () => {
  it('stores every event exactly once through a 429, a 5xx and a 413; sends nothing with Do Not Track, Global Privacy Control, or the setting off', async () => {
    // Prepare: the endpoint refuses the first batches once each, as an overloaded one would: 429,
    // then 413 (a batch of two or more), then a 5xx. In this order mixpanel's backoff (10 s after
    // a 429 or 5xx, doubling when they follow each other) keeps the test short.
    const reader = await openBrowser();
    const answered: { status: number; events: string[] }[] = [];
    await reader.context.route(
      (url) => url.pathname === TRACK_PATH,
      async (route: Route) => {
        const events = eventsOf(route.request()).map((event) => event.event);
        const refusals = answered.filter((entry) => entry.status !== 200).length;
        const refuse = refusals === 0 ? 429 : refusals === 1 && events.length >= 2 ? 413 : refusals === 2 ? 503 : 0;
        answered.push({ status: refuse || 200, events });
        if (refuse) {
          await route.fulfill({
            status: refuse,
            headers: { 'retry-after': '1', 'content-type': 'application/json' },
            body: JSON.stringify({ message: 'Not now', code: 'REFUSED' }),
          });
        } else {
          await route.fallback();
        }
      },
    );

    // Act: a reader turns analytics on for this device and browses; meanwhile three other
    // browsers (Do Not Track, Global Privacy Control, and the setting never turned on) browse too
    const [quiet] = await Promise.all([
      Promise.all([
        browseWithoutTracking({ privacy: 'dnt', path: '/?analytics=on' }),
        browseWithoutTracking({ privacy: 'gpc', path: '/?analytics=on' }),
        browseWithoutTracking({ path: '/' }),
      ]),
      (async () => {
        await reader.page.goto(`${runtime.url}/?analytics=on`);
        await browse(reader.page, ['About', 'Topics', 'Fastest growing', 'Active']);
      })(),
    ]);
    // ...and all four stay open, their time passing alike, until what the reader tracked is
    // stored (through mixpanel's retries), and for QUIET_MS at least
    const browsed = reader.tracked.length;
    let stored: StoredAnalyticsEvent[] = [];
    const quietMs = await letTimePass([reader, ...quiet], async (passedMs) => {
      stored = await storedAnalyticsEvents(runtime);
      return passedMs >= QUIET_MS && stored.length >= browsed;
    });
    const quietResults = quiet.map(quietResult);
    await Promise.all(quiet.map((visitor) => visitor.context.close()));

    // Assess: each refusal was retried by mixpanel itself, and the 413 split the batch
    expect(answered.slice(0, 4).map((entry) => entry.status)).toEqual([429, 413, 503, 200]);
    expect(answered[2]?.events.length).toBeLessThan(answered[1]?.events.length ?? 0);
    expect(answered[3]?.events).toEqual(answered[2]?.events);
    // Assess: what was tracked arrived, each event once
    expect(reader.tracked.map((event) => event.properties.route)).toEqual(['/', '/about', '/topics', '/growing', '/active']);
    expect(stored.map((event) => described(event.event, event.props)).sort()).toEqual(
      reader.tracked.map((event) => described(event.name, event.properties)).sort(),
    );
    expect(new Set(stored.map((event) => event.insert_id)).size).toBe(stored.length);
    // Nothing personal went with them (no address or referrer), and no request left this origin
    expect(JSON.stringify(stored)).not.toContain(runtime.url);
    expect(reader.requests.filter((url) => url.protocol.startsWith('http') && url.origin !== runtime.url)).toEqual([]);

    // Act: the reader logs in by email (a new account); the login lands back on the page it started from
    const email = `e2e-analytics-${randomUUID().slice(0, 6)}@example.com`;
    await reader.page.getByRole('button', { name: 'Login', exact: true }).click();
    await logInByEmailFromModal(reader.page, runtime, email);
    await shown(reader.page, reader.page.getByRole('button', { name: /^Account menu for/ }));
    await browse(reader.page, ['Topics']);
    const me = (await reader.page.evaluate(
      `fetch('/api/i/user/me/v', { headers: { 'x-application-id': '${WEB_APPLICATION_ID}' } }).then((answer) => answer.json())`,
    )) as { userId: string };
    let all: StoredAnalyticsEvent[] = [];
    await letTimePass([reader], async () => (all = await storedAnalyticsEvents(runtime)).length >= reader.tracked.length);

    // Assess: the login and the pages after it arrived once, tied to the person's user id
    expect(all.map((event) => described(event.event, event.props)).sort()).toEqual(
      reader.tracked.map((event) => described(event.name, event.properties)).sort(),
    );
    expect(new Set(all.map((event) => event.insert_id)).size).toBe(all.length);
    const login = all.filter((event) => event.event === 'Login');
    expect(login.map((event) => event.props)).toEqual([{ method: 'email', success: true }]);
    expect(all.filter((event) => event.user_id === me.userId).map((event) => described(event.event, event.props))).toContain(
      described('Page Viewed', { route: '/topics' }),
    );
    expect(all.filter((event) => event.user_id !== undefined && event.user_id !== me.userId)).toEqual([]);
    // mixpanel's own events ($identify) never left the browser
    expect(answered.flatMap((entry) => entry.events).filter((name) => name.startsWith('$'))).toEqual([]);
    expect(reader.mixpanelChunks().length).toBeGreaterThan(0);

    // Assess: the other three browsers announced their page views but loaded and sent nothing, in
    // the time the reader's browser took to load mixpanel and send everything, through its retries
    expect(quietMs).toBeGreaterThanOrEqual(QUIET_MS);
    for (const visitor of quietResults) {
      expect(visitor.announced).toEqual(['Page Viewed', 'Page Viewed', 'Page Viewed']);
      expect(visitor.mixpanelChunks).toBe(0);
      expect(visitor.trackRequests).toBe(0);
    }
    await reader.context.close();
  }, 150_000);
});
