import { RESERVED_PATH_SEGMENTS } from '../constants';
import { formatCount } from '../format-count';

/**
 * What may be shared as a story (SPEC 5): one function, run by the share form as the user types
 * and by the API as the authority. It never fetches anything and never throws: every input gets
 * either the normalised URL or an alert a person can act on.
 */

export interface ShareAlert {
  title: string;
  text: string;
}

export type ShareUrlCheck = { ok: true; url: string } | { ok: false; alert: ShareAlert };

export interface SharingRuleOptions {
  /** Hosts of this platform and its sibling apps: their pages are not external stories. */
  ownHosts: readonly string[];
}

const MAX_URL_LENGTH = 2_048;

/** Each rule that can refuse a link, named in its alert: a refusal always says which one applied. */
export const SHARE_ALERTS = {
  invalid: {
    title: 'Invalid url',
    text: 'Paste the full address of a story, starting with http:// or https://.',
  },
  tooLong: {
    title: 'Address too long',
    text: `Addresses longer than ${formatCount(MAX_URL_LENGTH)} characters cannot be shared: share the story's own address, without the extra parameters.`,
  },
  credentials: {
    title: 'No passwords in links',
    text: 'Remove the name and password before the @ in the address, then share it.',
  },
  localAddress: {
    title: 'Public addresses only',
    text: "That is a local address (such as localhost), which only your own computer or network can open: share the story's public address.",
  },
  forbiddenPath: {
    title: 'Forbidden url',
    text: `Links to ${RESERVED_PATH_SEGMENTS.map((segment) => `/${segment}`).join(', ')} pages cannot be shared: share the published story.`,
  },
  externalOnly: {
    title: 'External stories only',
    text: 'Please only share stories from outside of this platform.',
  },
  storiesOnly: {
    title: 'Stories only',
    text: 'Share stories, not social media updates or videos.',
  },
  originalOnly: {
    title: 'Original stories only',
    text: 'Share the original story, not a link to it on an aggregator or a link shortener.',
  },
  conspiracy: {
    title: 'No conspiracy sites',
    text: 'Stories from this site cannot be shared here.',
  },
  spam: {
    title: 'No spamming',
    text: 'Links to coupons, discount codes and VPN offers cannot be shared.',
  },
} as const satisfies Record<string, ShareAlert>;

/** Social networks and video sites: their pages are updates or videos, not stories. */
const SOCIAL_HOSTS = ['twitter.com', 'x.com', 'facebook.com', 'fb.com', 'instagram.com', 'vimeo.com', 'youtube.com', 'youtu.be'];

/** Social networks whose long-form section is a story: the host's pages outside that path are not. */
const STORY_SECTIONS: readonly { host: string; segment: string }[] = [
  { host: 'linkedin.com', segment: 'pulse' },
  { host: 'producthunt.com', segment: 'stories' },
];

const AGGREGATOR_HOSTS = ['pinterest.com', 'pin.it', 'mix.com', 'flipboard.com', 'bloglovin.com', 'bit.ly'];

const CONSPIRACY_HOSTS = ['infowars.com', 'naturalnews.com'];

/** Hosts seen posting only promotions; extend as moderation finds more. */
const SPAM_HOSTS = ['couponfollow.com', 'dealspotr.com', 'knoji.com'];

/** Words in a URL that mark a promotion rather than a story. */
const SPAM_MARKERS = [
  'discount-code',
  'coupon-code',
  'nordvpn',
  'expressvpn',
  'surfshark',
  'cyberghost',
  'privateinternetaccess',
  'purevpn',
];

/** Query parameters that track a click and never change the page. */
const TRACKING_PARAMETER = /^(utm_[a-z0-9_]*|fbclid|gclid|mc_cid|mc_eid|ref|ref_src)$/i;

/** The host without a trailing dot, lower case. */
function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/\.$/, '');
}

/** A host counts as any of its subdomains (www., m., uk., ...). */
function isOnHost(host: string, listed: string): boolean {
  const bare = listed.toLowerCase();
  return host === bare || host.endsWith(`.${bare}`);
}

const isOnAnyHost = (host: string, listed: readonly string[]) => listed.some((candidate) => isOnHost(host, candidate));

function pathSegments(url: URL): string[] {
  return url.pathname
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      try {
        return decodeURIComponent(segment).toLowerCase();
      } catch {
        return segment.toLowerCase();
      }
    });
}

/** The link as a URL, or the rule its form breaks: the length, the scheme, a name and password in it. */
function parse(input: string): URL | ShareAlert {
  const trimmed = input.trim();
  if (trimmed.length === 0) return SHARE_ALERTS.invalid;
  if (trimmed.length > MAX_URL_LENGTH) return SHARE_ALERTS.tooLong;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return SHARE_ALERTS.invalid;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return SHARE_ALERTS.invalid;
  // Credentials in a link are never part of a story.
  if (url.username || url.password) return SHARE_ALERTS.credentials;
  return url;
}

/**
 * The URL as it is stored and compared: lower-case host, no fragment, no tracking parameters,
 * no trailing slash on the path. The page's own canonical link, when fetched, comes later.
 */
export function normaliseStoryUrl(url: URL): string {
  const normal = new URL(url.href);
  normal.hash = '';
  for (const key of [...normal.searchParams.keys()]) {
    if (TRACKING_PARAMETER.test(key)) normal.searchParams.delete(key);
  }
  if (normal.pathname.length > 1) normal.pathname = normal.pathname.replace(/\/+$/, '');
  const href = normal.href;
  return normal.pathname === '/' && !normal.search ? href.replace(/\/$/, '') : href;
}

function refusal(alert: ShareAlert): ShareUrlCheck {
  return { ok: false, alert };
}

export function checkShareUrl(input: unknown, options: SharingRuleOptions): ShareUrlCheck {
  const url = typeof input === 'string' ? parse(input) : SHARE_ALERTS.invalid;
  if (!(url instanceof URL)) return refusal(url);
  const host = hostOf(url);
  const segments = pathSegments(url);

  // The platform's own host first: in development it is localhost, and the alert should say so.
  if (isOnAnyHost(host, options.ownHosts)) return refusal(SHARE_ALERTS.externalOnly);
  // A story lives on a named host of the public web: a name without a dot is local to a computer or network.
  if (!host.includes('.') || host.endsWith('.localhost')) return refusal(SHARE_ALERTS.localAddress);
  if (segments.some((segment) => (RESERVED_PATH_SEGMENTS as readonly string[]).includes(segment))) {
    return refusal(SHARE_ALERTS.forbiddenPath);
  }
  if (isOnAnyHost(host, SOCIAL_HOSTS)) return refusal(SHARE_ALERTS.storiesOnly);
  const section = STORY_SECTIONS.find((candidate) => isOnHost(host, candidate.host));
  if (section && segments[0] !== section.segment) return refusal(SHARE_ALERTS.storiesOnly);
  if (isOnAnyHost(host, AGGREGATOR_HOSTS)) return refusal(SHARE_ALERTS.originalOnly);
  if (isOnAnyHost(host, CONSPIRACY_HOSTS)) return refusal(SHARE_ALERTS.conspiracy);
  const lowered = decodeSafely(url.href).toLowerCase();
  if (isOnAnyHost(host, SPAM_HOSTS) || SPAM_MARKERS.some((marker) => lowered.includes(marker))) {
    return refusal(SHARE_ALERTS.spam);
  }
  return { ok: true, url: normaliseStoryUrl(url) };
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The hosts of a list of origins or URLs, for SharingRuleOptions.ownHosts; unparsable entries are skipped. */
export function hostsOf(origins: readonly string[]): string[] {
  return origins.flatMap((origin) => {
    try {
      return [new URL(origin).hostname.toLowerCase()];
    } catch {
      return [];
    }
  });
}
