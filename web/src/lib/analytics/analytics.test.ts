import mixpanel from 'mixpanel-browser/dist/mixpanel-core.cjs.js';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestRouter } from '../../test/test-scoped';
import { ANALYTICS_SETTING_KEY, analyticsAllowed, isProductionDeployment } from './config';
import { createMixpanelClient, type AnalyticsClient } from './mixpanel-client';
import { mixpanelOptions } from './mixpanel-options';
import { trackPageViews } from './page-views';
import {
  ANALYTICS_EVENT_TYPE,
  identify,
  PENDING_EVENTS_KEY,
  resetAnalytics,
  resetAnalyticsForTests,
  startAnalytics,
  track,
  type TrackedEvent,
} from './track';

/** A stand-in client recording what reaches it, in order. */
function recordingClient() {
  const calls: string[] = [];
  const client: AnalyticsClient = {
    track: (name, properties) => calls.push(`track ${name} ${JSON.stringify({ ...properties, time: undefined })}`),
    identify: (userId) => calls.push(`identify ${userId}`),
    reset: () => calls.push('reset'),
  };
  return { calls, client };
}

/** Runs the scheduled load when the test says so, as the browser would once idle. */
function manualSchedule() {
  let run: (() => void) | undefined;
  return { schedule: (next: () => void) => (run = next), idle: () => run?.() };
}

const nav = (fields: { doNotTrack?: string | null; globalPrivacyControl?: boolean } = {}) =>
  ({ doNotTrack: null, ...fields }) as unknown as Navigator;

beforeEach(() => {
  resetAnalyticsForTests();
  localStorage.clear();
});

afterEach(() => {
  vi.restoreAllMocks();
  resetAnalyticsForTests();
});

describe('when the page may track', () => {
  it('tracks in production, and elsewhere only once this device is switched on', () => {
    // Assess
    expect(analyticsAllowed({ prod: true, search: '', nav: nav() })).toBe(true);
    expect(analyticsAllowed({ prod: false, search: '', nav: nav() })).toBe(false);
    expect(analyticsAllowed({ prod: false, search: '?analytics=on', nav: nav() })).toBe(true);
    // The switch stays on for the next page, without the parameter
    expect(localStorage.getItem(ANALYTICS_SETTING_KEY)).toBe('on');
    expect(analyticsAllowed({ prod: false, search: '', nav: nav() })).toBe(true);
    expect(analyticsAllowed({ prod: false, search: '?analytics=maybe', nav: nav() })).toBe(true);
    expect(analyticsAllowed({ prod: true, search: '?analytics=off', nav: nav() })).toBe(false);
    expect(analyticsAllowed({ prod: true, search: '', nav: nav() })).toBe(false);
  });

  it('never tracks with Do Not Track or Global Privacy Control, even switched on', () => {
    // Prepare
    localStorage.setItem(ANALYTICS_SETTING_KEY, 'on');

    // Assess
    expect(analyticsAllowed({ prod: true, search: '', nav: nav({ doNotTrack: '1' }) })).toBe(false);
    expect(analyticsAllowed({ prod: true, search: '?analytics=on', nav: nav({ globalPrivacyControl: true }) })).toBe(false);
    expect(analyticsAllowed({ prod: true, search: '', nav: nav({ doNotTrack: '0', globalPrivacyControl: false }) })).toBe(true);
  });

  it('counts as production only a production build served from a real host', () => {
    // Assess
    expect(isProductionDeployment({ PROD: true }, 'toppubs.example')).toBe(true);
    expect(isProductionDeployment({ PROD: false }, 'toppubs.example')).toBe(false);
    for (const host of ['localhost', '127.0.0.1', '[::1]']) expect(isProductionDeployment({ PROD: true }, host)).toBe(false);
  });
});

describe('track', () => {
  it('queues calls until mixpanel arrives after the first paint, then hands them over in order', async () => {
    // Prepare
    const { calls, client } = recordingClient();
    const load = vi.fn(async () => client);
    const { schedule, idle } = manualSchedule();
    track('Page Viewed', { route: '/' });

    // Act
    startAnalytics({ allowed: true, load, schedule });
    identify('user-1');
    track('Story Liked', { liked: true });

    // Assess: nothing downloaded before the page is idle
    expect(load).not.toHaveBeenCalled();

    // Act
    idle();
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    track('Story Shared');

    // Assess
    expect(calls).toEqual([
      'track Page Viewed {"route":"/"}',
      'identify user-1',
      'track Story Liked {"liked":true}',
      'track Story Shared {}',
    ]);
  });

  it('stamps each event with the time it happened, not the time the queue was handed over', async () => {
    // Prepare
    const times: unknown[] = [];
    const load = async (): Promise<AnalyticsClient> => ({
      track: (_name, properties) => times.push(properties.time),
      identify: () => undefined,
      reset: () => undefined,
    });
    const { schedule, idle } = manualSchedule();
    vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    startAnalytics({ allowed: true, load, schedule });
    track('Upgrade Started');
    vi.spyOn(Date, 'now').mockReturnValue(1_700_000_060_000);

    // Act
    idle();

    // Assess
    await vi.waitFor(() => expect(times).toEqual([1_700_000_000]));
  });

  it('never downloads mixpanel, nor keeps anything, on a page that may not track', () => {
    // Prepare
    const load = vi.fn(async () => recordingClient().client);
    const { schedule, idle } = manualSchedule();
    track('Page Viewed', { route: '/' });

    // Act
    startAnalytics({ allowed: false, load, schedule });
    track('Story Shared');
    idle();

    // Assess
    expect(load).not.toHaveBeenCalled();
  });

  it('goes on without analytics when mixpanel cannot be loaded', async () => {
    // Prepare
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { schedule, idle } = manualSchedule();
    startAnalytics({ allowed: true, load: () => Promise.reject(new Error('offline')), schedule });

    // Act
    idle();
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('Analytics could not be loaded', expect.any(Error)));

    // Assess: later calls neither throw nor pile up
    expect(() => track('Story Shared')).not.toThrow();
  });

  it('announces every event on window, tracking or not', () => {
    // Prepare
    const seen: TrackedEvent[] = [];
    const listener = (event: Event) => seen.push((event as CustomEvent<TrackedEvent>).detail);
    window.addEventListener(ANALYTICS_EVENT_TYPE, listener);
    startAnalytics({ allowed: false });

    // Act
    track('Contacts Used', { count: 2 });
    window.removeEventListener(ANALYTICS_EVENT_TYPE, listener);

    // Assess
    expect(seen).toEqual([{ name: 'Contacts Used', properties: { count: 2 } }]);
  });

  it('tells the client who is signed in once, and resets only a device that had someone signed in', async () => {
    // Prepare
    const { calls, client } = recordingClient();
    startAnalytics({ allowed: true, load: async () => client, schedule: (run) => run() });

    // Act
    resetAnalytics();
    identify('user-1');
    identify('user-1');
    resetAnalytics();
    resetAnalytics();
    identify('user-2');

    // Assess
    await vi.waitFor(() => expect(calls).toEqual(['reset', 'identify user-1', 'reset', 'identify user-2']));
  });
});

describe('a page that goes away before mixpanel arrives', () => {
  let visibility: DocumentVisibilityState = 'visible';
  const setVisibility = (next: DocumentVisibilityState) => {
    visibility = next;
    document.dispatchEvent(new Event('visibilitychange'));
  };

  beforeEach(() => {
    visibility = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  });

  it('keeps its events for the next page, which sends them first, once, with the time they happened', async () => {
    // Prepare: a page tracks, then is closed before it loaded mixpanel
    vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    startAnalytics({ allowed: true, load: () => new Promise<never>(() => undefined), schedule: () => undefined });
    track('Page Viewed', { route: '/topic/:tag' });
    setVisibility('hidden');
    window.dispatchEvent(new Event('pagehide'));

    // Act: the next page loads mixpanel
    resetAnalyticsForTests();
    setVisibility('visible');
    const { calls, client } = recordingClient();
    const times: unknown[] = [];
    const { schedule, idle } = manualSchedule();
    startAnalytics({
      allowed: true,
      load: async () => ({
        ...client,
        track: (name, properties) => (times.push(properties.time), client.track(name, properties)),
      }),
      schedule,
    });
    track('Page Viewed', { route: '/about' });
    idle();

    // Assess
    await vi.waitFor(() =>
      expect(calls).toEqual(['track Page Viewed {"route":"/topic/:tag"}', 'track Page Viewed {"route":"/about"}']),
    );
    expect(times[0]).toBe(1_700_000_000);
    expect(localStorage.getItem(PENDING_EVENTS_KEY)).toBeNull();
  });

  it('takes its events back when it is shown again, so they are sent by it and by no other page', async () => {
    // Prepare
    const { calls, client } = recordingClient();
    const { schedule, idle } = manualSchedule();
    startAnalytics({ allowed: true, load: async () => client, schedule });
    track('Story Shared');

    // Act
    setVisibility('hidden');
    const parked = localStorage.getItem(PENDING_EVENTS_KEY);
    setVisibility('visible');
    idle();

    // Assess
    expect(parked).toContain('Story Shared');
    await vi.waitFor(() => expect(calls).toEqual(['track Story Shared {}']));
    expect(localStorage.getItem(PENDING_EVENTS_KEY)).toBeNull();
  });

  it('drops what earlier pages kept once this device may no longer track', () => {
    // Prepare
    localStorage.setItem(PENDING_EVENTS_KEY, JSON.stringify([{ kind: 'track', name: 'Story Shared', properties: {} }]));

    // Act
    startAnalytics({ allowed: false });

    // Assess
    expect(localStorage.getItem(PENDING_EVENTS_KEY)).toBeNull();
  });
});

describe('page views', () => {
  it('tracks the route pattern of each page shown, never the address, and not a change of query alone', async () => {
    // Prepare
    const seen: TrackedEvent[] = [];
    const listener = (event: Event) => seen.push((event as CustomEvent<TrackedEvent>).detail);
    window.addEventListener(ANALYTICS_EVENT_TYPE, listener);
    const router = createTestRouter(
      [
        {
          path: '/',
          children: [
            { index: true, element: null },
            { path: 'topic/:tag', element: null },
            { path: 'stories/:feed?', element: null },
            { path: '*', element: null },
          ],
        },
      ],
      { initialEntries: ['/'] },
    );

    // Act
    const stop = trackPageViews(router);
    await router.navigate('/topic/secret-token');
    await router.navigate('/topic/secret-token?page=2');
    await router.navigate('/stories/following');
    await router.navigate('/no/such/page');
    stop();
    await router.navigate('/');
    window.removeEventListener(ANALYTICS_EVENT_TYPE, listener);

    // Assess
    expect(seen.map((event) => event.properties.route)).toEqual(['/', '/topic/:tag', '/stories/:feed?', '/*']);
  });
});

describe('the mixpanel-browser set-up', () => {
  type Instance = { stop_batch_senders(): void };
  const started: Instance[] = [];

  // mixpanel-browser flushes its batch queues every few seconds for as long as the page lives, and
  // this page goes on with the worker's next files (vitest.config.ts).
  afterAll(() => {
    for (const instance of started) instance.stop_batch_senders();
  });

  it('posts to our own origin with the product constants, under option names mixpanel-browser knows', () => {
    // Prepare
    const options = mixpanelOptions({ origin: 'https://toppubs.example', protocol: 'https:' });
    // A second instance with nothing set: its config holds every option name mixpanel-browser has.
    const probe = mixpanel.init('probe', {}, 'probe') as unknown as Instance & { config: object };
    started.push(probe, mixpanel as unknown as Instance);
    const known = Object.keys(probe.config);

    // Act
    createMixpanelClient({ origin: 'https://toppubs.example', protocol: 'https:' });

    // Assess
    expect(Object.keys(options).filter((name) => !known.includes(name))).toEqual([]);
    expect(mixpanel.get_config('api_host')).toBe('https://toppubs.example/api/e/analytics');
    expect({
      batchSize: mixpanel.get_config('batch_size'),
      flushMs: mixpanel.get_config('batch_flush_interval_ms'),
      timeoutMs: mixpanel.get_config('batch_request_timeout_ms'),
      cookieDays: mixpanel.get_config('cookie_expiration'),
      linkTimeoutMs: mixpanel.get_config('track_links_timeout'),
      ip: mixpanel.get_config('ip'),
      secureCookie: mixpanel.get_config('secure_cookie'),
      autocapture: mixpanel.get_config('autocapture'),
    }).toEqual({
      batchSize: 50,
      flushMs: 5_000,
      timeoutMs: 90_000,
      cookieDays: 365,
      linkTimeoutMs: 300,
      ip: false,
      secureCookie: true,
      autocapture: false,
    });
    expect(mixpanel.get_config('property_blacklist')).toEqual(expect.arrayContaining(['$current_url', '$referrer']));
  });
});
