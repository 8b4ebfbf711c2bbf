/**
 * What the edge in front of the web app does, in one place for CloudFront (the web stack) and
 * the local static server, so the two cannot drift: the security headers, the pages that refuse
 * to be framed, and the viewer-request function that rewrites client routes to the app shell.
 */
import { VIEWER_ADDRESS_HEADER } from '../shared/constants';

/**
 * The product is shown inside frames on partner sites, so pages may be framed in general. The
 * account and login pages may not: a framing page could trick a signed-in user into clicking
 * through account actions (clickjacking).
 */
export const NO_FRAME_SEGMENTS = ['me', 'login', 'logout'] as const;

/** CloudFront path patterns (case-sensitive; '*' is any run of characters) of the no-frame pages. */
export const NO_FRAME_PATH_PATTERNS: readonly string[] = NO_FRAME_SEGMENTS.flatMap((segment) => [`/${segment}`, `/${segment}/*`]);

/**
 * reCAPTCHA Enterprise, loaded by the login modal when the build has a site key: its script
 * comes from www.google.com and pulls the rest from www.gstatic.com, and its widget is a frame.
 * Only the /recaptcha/ paths are allowed: other www.google.com endpoints answer JSONP, which
 * would let an injected script tag run attacker-chosen code under a host-wide allowance.
 */
const RECAPTCHA_SCRIPT_SOURCES = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];
const RECAPTCHA_FRAME_SOURCES = [...RECAPTCHA_SCRIPT_SOURCES, 'https://recaptcha.google.com/recaptcha/'];

/**
 * Braintree's Drop-in (the checkout's card form in AWS): its script is bundled with the app, but
 * it loads its stylesheet and the card fields' frames from Braintree's asset host and talks to
 * its client API and analytics hosts, per Braintree's content-security-policy guide. PayPal and
 * 3-D Secure are not offered, so their hosts are not allowed.
 */
const BRAINTREE_ASSET_SOURCES = ['https://assets.braintreegateway.com'];
const BRAINTREE_CONNECT_SOURCES = [
  'https://api.braintreegateway.com',
  'https://api.sandbox.braintreegateway.com',
  'https://client-analytics.braintreegateway.com',
  'https://client-analytics.sandbox.braintreegateway.com',
  'https://*.braintree-api.com',
];

export type Framing = 'allowed' | 'denied';

/**
 * The web app's Content-Security-Policy. Scripts only from the site (the built index.html has no
 * inline script) and reCAPTCHA; no 'unsafe-eval'. Styles need 'unsafe-inline': the toaster
 * (sonner), the dialogs' scroll lock (react-remove-scroll, under Radix Dialog) and the progress
 * bar add <style> elements at run time, with content no hash could list. Images may come from
 * any https: host (profile pictures are links) and data: URLs (the inline monogram icons).
 * Without frame-ancestors any site may frame the page, which partners rely on. Pages connect to
 * the site itself ('self', which covers a same-host ws: locally) and, in AWS, to the WebSocket
 * API's own origin (`connectSources`) for live updates, and to the file bucket's (`fileSources`):
 * the browser sends files straight to it and streams the zip of a package from it. Locally the
 * bucket is the S3 emulator on plain http, which image previews load from too. Audio and video
 * previews play from the bucket (media-src); PDFs open in a tab of their own, so no frame source
 * is needed for them. The checkout's
 * card form reaches the payment gateway (Braintree's hosts, or locally `paymentSources`).
 */
export interface PolicySources {
  connectSources?: readonly string[];
  /** Origins of the file bucket: uploads and downloads (connect), previews (img, media). */
  fileSources?: readonly string[];
  /** Locally: the local payment gateway, which the checkout's card form sends the card to (as Braintree's would). */
  paymentSources?: readonly string[];
}

export function contentSecurityPolicy(framing: Framing, options: PolicySources = {}): string {
  const fileSources = options.fileSources ?? [];
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...RECAPTCHA_SCRIPT_SOURCES],
    ['style-src', "'self'", "'unsafe-inline'", ...BRAINTREE_ASSET_SOURCES],
    ['img-src', "'self'", 'https:', 'data:', ...fileSources.filter((source) => source.startsWith('http:'))],
    ['font-src', "'self'"],
    // A package's audio and video play from their presigned links on the file bucket.
    ['media-src', "'self'", ...fileSources],
    [
      'connect-src',
      "'self'",
      ...(options.connectSources ?? []),
      ...fileSources,
      ...BRAINTREE_CONNECT_SOURCES,
      ...(options.paymentSources ?? []),
    ],
    ['frame-src', ...RECAPTCHA_FRAME_SOURCES, ...BRAINTREE_ASSET_SOURCES],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ...(framing === 'denied' ? [['frame-ancestors', "'none'"] as [string, string]] : []),
  ];
  return directives.map((directive) => directive.join(' ')).join('; ');
}

export const REFERRER_POLICY = 'strict-origin-when-cross-origin';
/** HSTS for a year and every subdomain; sent by CloudFront only, since the local server is plain HTTP. */
export const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The headers the web app is served with, for pages and static files alike (CloudFront adds them to both). */
export function webSecurityHeaders(framing: Framing, sources: PolicySources = {}): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(framing, sources),
    'x-content-type-options': 'nosniff',
    'referrer-policy': REFERRER_POLICY,
    ...(framing === 'denied' ? { 'x-frame-options': 'DENY' } : {}),
  };
}

/** CloudFront's path-pattern match: case-sensitive, '*' for any characters, '?' for exactly one. */
export function pathPatternRegExp(pattern: string): RegExp {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`);
}

const NO_FRAME_PATHS = NO_FRAME_PATH_PATTERNS.map(pathPatternRegExp);

/** Which cache behaviour answers this raw request path, so which headers it gets. */
export function framingFor(path: string): Framing {
  return NO_FRAME_PATHS.some((pattern) => pattern.test(path)) ? 'denied' : 'allowed';
}

/**
 * The viewer-request function (CloudFront Functions, JavaScript runtime 2.0) of the site's
 * behaviours; the local static server runs the same code.
 *
 * SPA fallback: distribution-level error responses (403/404 -> /index.html) would also rewrite
 * the API's own 403 and 404 answers into a 200 HTML page, so client routes are rewritten before
 * they reach S3 instead: anything that is not a built asset (under /assets/), a share image
 * (under /og/) or a root-level static file is the app shell.
 *
 * No-frame pages in another spelling: the router matches routes case-insensitively and after
 * percent-decoding, but CloudFront's path patterns match the raw path, so '/ME' or '/%6De' would
 * show the account page with the frameable headers. Such a first segment is redirected to its
 * canonical spelling, where the no-frame behaviour answers; the rest of the URL is kept as is.
 */
export const VIEWER_REQUEST_FUNCTION_CODE = `
var STATIC_ROOT_FILE = /^\\/[^\\/]+\\.(?:ico|png|svg|jpg|webp|txt|xml|json|webmanifest|js|css|map|woff2?)$/;
var NO_FRAME_SEGMENTS = ${JSON.stringify(NO_FRAME_SEGMENTS)};
function canonicalNoFrameSegment(segment) {
  var decoded;
  try {
    decoded = decodeURIComponent(segment);
  } catch (e) {
    return null;
  }
  var lower = decoded.toLowerCase();
  return NO_FRAME_SEGMENTS.indexOf(lower) >= 0 ? lower : null;
}
function queryString(querystring) {
  var parts = [];
  for (var name in querystring) {
    var entry = querystring[name];
    var values = entry.multiValue ? entry.multiValue : [entry];
    for (var i = 0; i < values.length; i++) parts.push(values[i].value === '' ? name : name + '=' + values[i].value);
  }
  return parts.length ? '?' + parts.join('&') : '';
}
function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var segment = uri.split('/')[1] || '';
  var canonical = canonicalNoFrameSegment(segment);
  if (canonical !== null && canonical !== segment) {
    return {
      statusCode: 301,
      statusDescription: 'Moved Permanently',
      headers: {
        location: { value: '/' + canonical + uri.slice(1 + segment.length) + queryString(request.querystring || {}) },
        'cache-control': { value: 'no-store' }
      }
    };
  }
  if (uri.indexOf('/assets/') !== 0 && uri.indexOf('/og/') !== 0 && !STATIC_ROOT_FILE.test(uri)) {
    request.uri = '/index.html';
  }
  return request;
}
`;

export interface ViewerRequest {
  uri: string;
  querystring?: Record<string, { value: string; multiValue?: { value: string }[] }>;
}

export type ViewerRequestResult =
  ViewerRequest | { statusCode: number; statusDescription: string; headers: Record<string, { value: string }> };

/**
 * The public pages, as CloudFront path patterns: the edge sends them to the page renderer (a
 * route of the API: shared/routes/web-pages.ts) instead of the bucket, so crawlers and link
 * previews get each page's own head and content as HTML. Broad patterns ('/topic*' covers
 * /topic/{tag}/…, /topics and /topics/{page}) keep the distribution well under CloudFront's 25
 * behaviours; a path they catch that is no public page (/stories/review) gets the app shell
 * from the renderer, marked noindex, as the bucket would have served it. robots.txt, the
 * sitemaps and the RSS and Atom feeds (/feeds/..., shared/feeds.ts) are answered by the same
 * function.
 */
export const PAGE_PATH_PATTERNS: readonly string[] = [
  '/',
  '/active',
  '/growing*',
  '/recent*',
  '/topic*',
  '/@*',
  '/about',
  '/stories*',
  '/pub/*',
  '/archive*',
  '/robots.txt',
  '/sitemap*',
  '/feeds/*',
];

const PAGE_PATHS = PAGE_PATH_PATTERNS.map(pathPatternRegExp);

/** Whether the edge sends this raw request path to the page renderer. */
export function isPagePath(path: string): boolean {
  return PAGE_PATHS.some((pattern) => pattern.test(path));
}

/** Where the page paths land on the API (shared/routes/web-pages.ts). */
export const PAGE_RENDERER_PATHS = {
  page: '/api/i/web/page',
  sitemap: '/api/i/web/sitemap',
  robots: '/api/i/web/robots',
  /** The feed routes (shared/routes/feeds.ts), each under its own path below this. */
  feeds: '/api/i/feeds',
} as const;

/**
 * The viewer-request function (CloudFront Functions, JavaScript runtime 2.0) of the page
 * behaviours; the local server runs the same code. It points the request at the renderer's
 * API route with the page's raw path in `path`, and keeps only the query parameter a page
 * reads (`active=true`): tracking parameters would otherwise split the cache, one render each.
 * A feed's address (shared/feeds.ts) goes to its own route, with no query parameter at all; a
 * /feeds/ path that is no feed is a page path like any other (the app shell, noindex).
 */
export const PAGE_REQUEST_FUNCTION_CODE = `
var PATHS = ${JSON.stringify(PAGE_RENDERER_PATHS)};
var SITEMAP_PART = /^\\/sitemaps\\/([1-9][0-9]{0,3})\\.xml$/;
var STORIES_FEED = /^\\/feeds\\/stories\\/(hot|new)\\.(rss|atom)$/;
var USER_FEED = /^\\/feeds\\/@([^\\/]+)\\.(rss|atom)$/;
var SITE_FEED = /^\\/feeds\\/site\\/([^\\/]+)\\.(rss|atom)$/;
var BOARD_FEED = /^\\/feeds\\/boards\\/(most-followed|fastest-growing)\\.(rss|atom)$/;
var TOPIC_BOARD_FEED = /^\\/feeds\\/topic\\/([^\\/]+)\\/(most-followed|fastest-growing)\\.(rss|atom)$/;
function feedRoute(uri) {
  var match = STORIES_FEED.exec(uri);
  if (match) return { uri: PATHS.feeds + '/stories/' + match[1] + '/' + match[2], querystring: {} };
  match = USER_FEED.exec(uri);
  if (match) return { uri: PATHS.feeds + '/user/' + match[1] + '/' + match[2], querystring: {} };
  match = SITE_FEED.exec(uri);
  if (match) return { uri: PATHS.feeds + '/site/' + match[1] + '/' + match[2], querystring: {} };
  match = BOARD_FEED.exec(uri);
  if (match) return { uri: PATHS.feeds + '/board/' + match[1] + '/' + match[2], querystring: {} };
  match = TOPIC_BOARD_FEED.exec(uri);
  if (match) return { uri: PATHS.feeds + '/board/' + match[2] + '/' + match[3], querystring: { topic: { value: match[1] } } };
  return null;
}
function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var query = request.querystring || {};
  if (uri === '/robots.txt') {
    request.uri = PATHS.robots;
    request.querystring = {};
    return request;
  }
  if (uri === '/sitemap.xml') {
    request.uri = PATHS.sitemap;
    request.querystring = {};
    return request;
  }
  var part = SITEMAP_PART.exec(uri);
  if (part) {
    request.uri = PATHS.sitemap;
    request.querystring = { part: { value: part[1] } };
    return request;
  }
  var feed = feedRoute(uri);
  if (feed) {
    request.uri = feed.uri;
    request.querystring = feed.querystring;
    return request;
  }
  var active = query.active;
  request.querystring = { path: { value: encodeURIComponent(uri) } };
  if (active && !active.multiValue && active.value === 'true') request.querystring.active = { value: 'true' };
  request.uri = PATHS.page;
  return request;
}
`;

/**
 * The viewer-request function (CloudFront Functions, JavaScript runtime 2.0) of `/api/*`: API
 * Gateway sees the edge server's address, shared by everyone it serves, so the edge writes the
 * viewer's own in a header, over any the viewer sent. The functions believe it only beside the
 * token the distribution adds to every request to the API (functions/lib/http/client-address.ts).
 * Locally the API is reached directly and the socket's address is the client's.
 */
export const API_VIEWER_ADDRESS_FUNCTION_CODE = `
function handler(event) {
  var request = event.request;
  request.headers[${JSON.stringify(VIEWER_ADDRESS_HEADER)}] = { value: event.viewer.ip };
  return request;
}
`;
