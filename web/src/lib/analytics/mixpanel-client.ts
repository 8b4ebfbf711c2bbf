// The build of mixpanel-browser without session recording, autocapture loaders or the rrweb it
// would bundle: a third of the size of the package's default entry.
import mixpanel from 'mixpanel-browser/dist/mixpanel-core.cjs.js';
import { ANALYTICS_TOKEN, mixpanelOptions } from './mixpanel-options';

/** What the page's stub hands to the real client once it has arrived. */
export interface AnalyticsClient {
  track(name: string, properties: Record<string, unknown>): void;
  identify(userId: string): void;
  reset(): void;
}

/** mixpanel's own events ($identify, $create_alias...) are not in our catalogue: never sent. */
const isOwnEvent = (payload: { event: string }) => !payload.event.startsWith('$');

/** Loaded on demand, after the first paint: sets mixpanel-browser up once and wraps it. */
export function createMixpanelClient(location: { origin: string; protocol: string } = window.location): AnalyticsClient {
  mixpanel.init(ANALYTICS_TOKEN, {
    ...mixpanelOptions(location),
    hooks: { before_send_events: (payload) => (isOwnEvent(payload) ? payload : null) },
  });
  return {
    track: (name, properties) => mixpanel.track(name, properties),
    identify: (userId) => mixpanel.identify(userId),
    // Only a device tied to a person gets a new id: a visitor keeps theirs from page to page.
    reset: () => {
      if (mixpanel.get_property('$user_id')) mixpanel.reset();
    },
  };
}
