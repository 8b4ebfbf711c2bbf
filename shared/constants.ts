/** Sent by the web client on every call; state-changing calls are refused without it. */
export const WEB_APPLICATION_ID = 'sso_app_6';
export const APPLICATION_ID_HEADER = 'x-application-id';
/** Private token a server-side app sends with its app id. Stored hashed, never logged. */
export const APP_TOKEN_HEADER = 'x-app-token';
/** Session token header for non-browser and cross-app callers. */
export const SESSION_HEADER = 'ssoat';
/**
 * A cookie the page can read (the session cookie is HttpOnly), set beside the session at login
 * and cleared with it: without it the web app knows nobody is signed in and asks no one.
 */
export const SIGNED_IN_HINT_COOKIE = 'ssoh';
/** The page a browser call was made from, and a flag that it came from a browser window. */
export const PAGE_URL_HEADER = 'x-page-url';
export const BROWSER_WINDOW_HEADER = 'x-browser-window';
/**
 * Set by CloudFront on every /api/ request: the viewer's own address (API Gateway sees only the
 * edge's), and the edge's proof that it set it (the functions trust the first only with the second).
 */
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';
export const EDGE_ORIGIN_TOKEN_HEADER = 'x-origin-token';

/** Request headers a cross-origin caller may send: CORS preflights allow exactly these. */
export const CORS_ALLOWED_HEADERS = [
  'content-type',
  APPLICATION_ID_HEADER,
  SESSION_HEADER,
  APP_TOKEN_HEADER,
  PAGE_URL_HEADER,
  BROWSER_WINDOW_HEADER,
  'if-none-match',
] as const;

/**
 * The API's CORS, as API Gateway applies it (infra/cdk/stacks/api-stack.ts) and the local
 * runtime emulates it (infra/local/api-server.ts). An HTTP API with a CORS configuration answers
 * preflights itself, adds these headers to every answer for an allowed origin, and ignores any
 * CORS header a function returns: so the functions send none.
 */
export const API_CORS = {
  allowHeaders: CORS_ALLOWED_HEADERS,
  allowMethods: ['GET', 'POST', 'PUT', 'DELETE'],
  /** Answer headers a cross-origin page may read: the validator and how long to wait. */
  exposeHeaders: ['etag', 'retry-after'],
  maxAgeSeconds: 3600,
} as const;

/** Path segments that can never be a username or a shared-link slug. */
export const RESERVED_PATH_SEGMENTS = ['edit', 'draft', 'me', 'settings', 'stats'] as const;

/** A publication is active when its latest post is at most this many days old. */
export const ACTIVE_WINDOW_DAYS = 30;
/** Growth is measured over this trailing window. */
export const GROWTH_WINDOW_DAYS = 30;
/** Daily follower counts kept inline on a publication for growth and sparklines. */
export const RECENT_HISTORY_DAYS = 35;

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const APP_NAME = 'TopPubs';

/** Social-sharing image of every app's pages: 1500x1500 PNG served with the web app. */
export const SHARE_IMAGE_URL = '/og/toppubs-1500.png';

/**
 * The mailer's early warning (functions/lib/mailer.ts): each mail of a kind that finds the kind's
 * service-wide hourly count at `percent` of its cap or more is logged and counted in this metric,
 * and the monitoring stack alarms on it, so an operator hears of a flood before the cap refuses
 * everyone. The dimension is the same from every function (`service: mail`), so one alarm
 * watches every kind; the EMF line and the log line name the kind.
 */
export const MAIL_HOURLY_CAP_WARNING = {
  percent: 80,
  namespace: 'TopPubs',
  service: 'mail',
  metricName: 'MailHourlyCapNearlyUsed',
} as const;
