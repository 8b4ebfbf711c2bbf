/** How mixpanel-browser is set up; loaded with it, after the first page (./mixpanel-client.ts). */

/** Names this app's events in storage; not a secret (every browser sends it). */
export const ANALYTICS_TOKEN = 'toppubs-web';

/** Our ingestion routes, on the page's own origin (no third party ever sees an event). */
export const ANALYTICS_API_PATH = '/api/e/analytics';

/**
 * Properties mixpanel-browser adds on its own that could say where a person was or came from
 * (an address can hold a token). The server drops them too; not sending them is better.
 */
export const NEVER_SENT_PROPERTIES = [
  '$current_url',
  '$referrer',
  '$referring_domain',
  '$initial_referrer',
  '$initial_referring_domain',
  '$search_engine',
  'mp_keyword',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
] as const;

/**
 * The product's constants, under mixpanel-browser's own option names. Several equal its
 * defaults (batch of 50, 5 s flush, 90 s request timeout, 365-day cookie, 300 ms link timeout):
 * they are set anyway so the product does not change when a mixpanel release changes a default.
 * What it has no option for is its own behaviour and is relied on as it is: strings truncated
 * to 255 characters, retries after timeouts, 5xx and 429 (honouring Retry-After) with backoff up
 * to 10 minutes, halving the batch on 413, dropping a single event that is still too large, an
 * event id sent at most 5 times, and a 2 s lock timeout between tabs.
 */
export function mixpanelOptions(location: { origin: string; protocol: string }) {
  return {
    api_host: `${location.origin}${ANALYTICS_API_PATH}`,
    api_routes: { track: 'track', engage: 'engage', groups: 'groups' },
    api_method: 'POST',
    api_transport: 'XHR',
    api_payload_format: 'base64',
    batch_requests: true,
    batch_size: 50,
    batch_flush_interval_ms: 5_000,
    batch_request_timeout_ms: 90_000,
    cookie_expiration: 365,
    track_links_timeout: 300,
    // The address is not kept: the server ignores ip=1, and mixpanel is told not to ask for it.
    ip: false,
    // A first-party cookie of this host only, so the 365-day expiry applies; a sibling app on
    // the parent domain neither reads nor receives it.
    persistence: 'cookie',
    cross_subdomain_cookie: false,
    secure_cookie: location.protocol === 'https:',
    property_blacklist: [...NEVER_SENT_PROPERTIES] as string[],
    save_referrer: false,
    track_marketing: false,
    store_google: false,
    stop_utm_persistence: true,
    skip_first_touch_marketing: true,
    track_pageview: false,
    autocapture: false,
    record_sessions_percent: 0,
    flags: false,
    // The pages decide: a browser's Do Not Track is checked before mixpanel is even loaded.
    ignore_dnt: false,
  } as const;
}
