import type { AnalyticsEventName, AnalyticsEventProperties } from '@shared/schemas/analytics';
import { analyticsAllowed } from './config';
import type { AnalyticsClient } from './mixpanel-client';

/**
 * The page's side of product analytics: a tiny stub in the first load. Calls made before
 * mixpanel-browser has arrived wait in a queue; it is loaded once the page is idle after its
 * first paint, and never when this page may not track (./config.ts says when).
 *
 * Every call is also announced on window as a `CustomEvent('analytics')` with
 * `detail: { name, properties }`, tracking or not, so a test (or a curious developer) can see
 * what the page tracks without a network.
 */

export const ANALYTICS_EVENT_TYPE = 'analytics';

export interface TrackedEvent {
  name: AnalyticsEventName;
  properties: Record<string, unknown>;
}

type Call =
  | { kind: 'track'; name: AnalyticsEventName; properties: Record<string, unknown> }
  | { kind: 'identify'; userId: string }
  | { kind: 'reset' };

/** Enough for any page's burst before the client arrives; past it a runaway loop is not kept. */
const MAX_QUEUED = 500;
/**
 * How long after the page's load the client waits: the first page gets the network and the main
 * thread to itself (mixpanel-browser is about 36 KB of gzip, 128 KB to parse).
 */
const LOAD_DELAY_MS = 3_000;
/** How long the page may then stay busy before the client is loaded anyway. */
const IDLE_TIMEOUT_MS = 4_000;
/** Where events tracked before the client arrived wait while the page is hidden or gone. */
export const PENDING_EVENTS_KEY = 'toppubs.analytics.pending';

type State = 'unstarted' | 'loading' | 'ready' | 'off';
let state: State = 'unstarted';
let client: AnalyticsClient | null = null;
let queue: Call[] = [];
/** Who the page last said is here: a userId, null for nobody signed in, undefined before it knew. */
let identity: string | null | undefined;
/** Takes away the page's hide and show listeners that startAnalytics added. */
let stopParking: (() => void) | undefined;

function deliver(call: Call, to: AnalyticsClient): void {
  try {
    if (call.kind === 'track') to.track(call.name, call.properties);
    else if (call.kind === 'identify') to.identify(call.userId);
    else to.reset();
  } catch (error) {
    // Analytics never breaks a page.
    console.warn('Analytics call failed', error);
  }
}

function send(call: Call): void {
  if (state === 'off') return;
  if (client) deliver(call, client);
  else if (queue.length < MAX_QUEUED) queue.push(call);
}

type TrackArgs<N extends AnalyticsEventName> =
  Record<string, never> extends AnalyticsEventProperties<N>
    ? [properties?: AnalyticsEventProperties<N>]
    : [properties: AnalyticsEventProperties<N>];

/** Tracks one event of the catalogue with its own properties. Never throws, never waits. */
export function track<N extends AnalyticsEventName>(name: N, ...[properties]: TrackArgs<N>): void {
  const own = { ...(properties ?? {}) } as Record<string, unknown>;
  if (typeof window !== 'undefined') {
    try {
      window.dispatchEvent(new CustomEvent<TrackedEvent>(ANALYTICS_EVENT_TYPE, { detail: { name, properties: own } }));
    } catch (error) {
      console.warn('An analytics listener failed', error);
    }
  }
  // The time it happened, not the time the queue reached mixpanel (epoch seconds, as mixpanel sends it).
  send({ kind: 'track', name, properties: { ...own, time: Date.now() / 1000 } });
}

/** Ties this device's events to the signed-in person (our userId, nothing else about them). */
export function identify(userId: string): void {
  if (identity === userId) return;
  identity = userId;
  send({ kind: 'identify', userId });
}

/**
 * Nobody is signed in (they logged out, here or elsewhere): the client starts a new anonymous
 * id if this device's was tied to a person, so the next one here is not counted as them.
 */
export function resetAnalytics(): void {
  if (identity === null) return;
  identity = null;
  send({ kind: 'reset' });
}

type TrackCall = Extract<Call, { kind: 'track' }>;

function takePending(): TrackCall[] {
  try {
    const saved = localStorage.getItem(PENDING_EVENTS_KEY);
    localStorage.removeItem(PENDING_EVENTS_KEY);
    const calls = saved ? (JSON.parse(saved) as unknown) : [];
    return Array.isArray(calls) ? (calls as TrackCall[]).filter((call) => call?.kind === 'track') : [];
  } catch {
    return [];
  }
}

/**
 * The page is hidden (maybe for good: a phone gives no later sign) before the client arrived:
 * its events wait in storage, for this page if it comes back, or for the next page that loads
 * the client. Moved, not copied, so no event is ever sent twice.
 */
function parkQueue(): void {
  if (state !== 'loading') return;
  const tracked = queue.filter((call): call is TrackCall => call.kind === 'track');
  if (!tracked.length) return;
  try {
    const parked = [...takePending(), ...tracked].slice(-MAX_QUEUED);
    localStorage.setItem(PENDING_EVENTS_KEY, JSON.stringify(parked));
    queue = queue.filter((call) => call.kind !== 'track');
  } catch {
    // Without storage they stay here, and go if the page does.
  }
}

function unparkQueue(): void {
  if (state === 'loading' && document.visibilityState === 'visible') queue = [...takePending(), ...queue];
}

function whenIdle(run: () => void): void {
  const afterLoad = () =>
    setTimeout(() => {
      if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
      else run();
    }, LOAD_DELAY_MS);
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}

/**
 * Decides once per page whether it tracks; if it does, mixpanel-browser is fetched a few seconds
 * after the page has loaded, once it is idle, and the queue (with what earlier pages left in
 * storage first) is handed to it. A page that may not track drops both and never downloads it.
 */
export function startAnalytics(
  options: { allowed?: boolean; load?: () => Promise<AnalyticsClient>; schedule?: (run: () => void) => void } = {},
): void {
  if (state !== 'unstarted') return;
  let allowed: boolean;
  try {
    allowed = options.allowed ?? analyticsAllowed();
  } catch {
    // A page whose storage is refused (a sandboxed frame) does not track.
    allowed = false;
  }
  if (!allowed) {
    state = 'off';
    queue = [];
    takePending();
    return;
  }
  state = 'loading';
  const onVisibilityChange = () => (document.visibilityState === 'hidden' ? parkQueue() : unparkQueue());
  document.addEventListener('visibilitychange', onVisibilityChange);
  window.addEventListener('pagehide', parkQueue);
  stopParking = () => {
    document.removeEventListener('visibilitychange', onVisibilityChange);
    window.removeEventListener('pagehide', parkQueue);
  };
  const load = options.load ?? (async () => (await import('./mixpanel-client')).createMixpanelClient());
  (options.schedule ?? whenIdle)(() => {
    load().then(
      (loaded) => {
        client = loaded;
        state = 'ready';
        for (const call of [...takePending(), ...queue.splice(0)]) deliver(call, loaded);
      },
      (error: unknown) => {
        // Offline, or a deployment replaced the chunk: this page goes without analytics.
        state = 'off';
        queue = [];
        console.warn('Analytics could not be loaded', error);
      },
    );
  });
}

/** Tests only: forget the page's decision and queue, and stop listening to the page. */
export function resetAnalyticsForTests(): void {
  stopParking?.();
  stopParking = undefined;
  state = 'unstarted';
  client = null;
  queue = [];
  identity = undefined;
}
