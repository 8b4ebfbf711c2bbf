/** A path starting with one '/', with no backslash or control character (browsers fold those into '//'). */
export function isSameSitePath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//')) return false;
  for (const char of path) {
    const code = char.charCodeAt(0);
    if (char === '\\' || code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

/** The longest path a login carries back. */
export const MAX_RETURN_PATH = 512;

/** Pages a login never lands back on: they log out, or start or finish a login. */
const NO_RETURN_SEGMENTS = new Set(['logout', 'login', 'authed']);

/**
 * Where a login lands: the page it started from, when that is a path on this site and not a
 * page that logs out or logs in again (logging in from /logout lands on /, not on a second
 * logout); otherwise the home page.
 */
export function loginReturnPath(path: unknown): string {
  if (typeof path !== 'string' || path.length > MAX_RETURN_PATH || !isSameSitePath(path)) return '/';
  const firstSegment = path.slice(1).split(/[/?#]/)[0] ?? '';
  return NO_RETURN_SEGMENTS.has(firstSegment.toLowerCase()) ? '/' : path;
}

/**
 * The fragment an outside login lands with, so the page greets the person as an email login
 * does and counts the login by its provider; the web app reads it once and removes it. Google's
 * is the bare marker (`#welcome`, `#logged-in`), another provider's is suffixed (`#logged-in-twitter`).
 */
export const LOGIN_ARRIVAL_FRAGMENTS = { created: 'welcome', returning: 'logged-in' } as const;
export type OutsideLoginProvider = 'google' | 'twitter';

/** Marks the return to the account page after connecting Twitter, for its confirmation toast. */
export const TWITTER_CONNECTED_FRAGMENT = 'twitter-connected';

export function withLoginArrival(path: string, isNewAccount: boolean, provider: OutsideLoginProvider): string {
  const marker = isNewAccount ? LOGIN_ARRIVAL_FRAGMENTS.created : LOGIN_ARRIVAL_FRAGMENTS.returning;
  return `${path}#${marker}${provider === 'google' ? '' : `-${provider}`}`;
}

/** What a landing's fragment (without its `#`) says of an outside login; null for anything else. */
export function readLoginArrival(fragment: string): { isNewAccount: boolean; provider: OutsideLoginProvider } | null {
  const match = /^(welcome|logged-in)(?:-(twitter))?$/.exec(fragment);
  if (!match) return null;
  return { isNewAccount: match[1] === LOGIN_ARRIVAL_FRAGMENTS.created, provider: match[2] === 'twitter' ? 'twitter' : 'google' };
}
