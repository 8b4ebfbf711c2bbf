import type { Db } from '../../lib/db/service';
import type { Caller } from '../../lib/http/caller';
import { Unauthorized } from '../../lib/errors';
import { defineTokenPurpose, issueToken, readToken } from '../../lib/one-time-tokens';
import type { LinkVisitorCaller, PackageCaller, PackageGrantCaller } from './transfer-access';

/**
 * A package grant: what a transfer's emailed link gives once it is spent. It opens that one
 * package for that one recipient (view, vote, download) and nothing else: it is not a session,
 * the request pipeline never reads it, and only the package routes (resolvePackageCaller) accept
 * it. Stored like a one-time token (only its hash, under its own purpose, with an expiry); it is
 * read, never spent, and a transfer's expiry still closes the package whatever the grant says.
 */
export const TRANSFER_PACKAGE_GRANT = defineTokenPurpose<RecipientGrant | LinkGrant>('transfer-package-grant', {
  lifetimeSeconds: 30 * 24 * 3600,
});

/** What a recipient's emailed link gives (grants issued before link transfers carry no kind). */
interface RecipientGrant {
  kind?: 'recipient';
  transferId: string;
  email: string;
  userId: string;
}

/**
 * What a link transfer's link gives: the package for whoever holds the cookie, with no address
 * and no account. `visitorId` is random per grant: it tells one visitor's repeated downloads
 * from another's.
 */
interface LinkGrant {
  kind: 'link';
  transferId: string;
  visitorId: string;
}

const GRANT_COOKIE_PREFIX = 'tpg_';
/** One cookie per transfer, so grants for several packages live side by side. */
export const packageGrantCookieName = (transferId: string) => `${GRANT_COOKIE_PREFIX}${transferId}`;
/** Whether the request carries any package grant (which one counts is decided per transfer). */
export const carriesPackageGrant = (cookies: Readonly<Record<string, string>>) =>
  Object.keys(cookies).some((name) => name.startsWith(GRANT_COOKIE_PREFIX));

/** Sent only to the API (Path=/api/i/), never readable by the page. */
export function packageGrantCookie(transferId: string, token: string, maxAgeSeconds: number): string {
  return `${packageGrantCookieName(transferId)}=${token}; Path=/api/i/; HttpOnly; Secure; SameSite=Lax; Max-Age=${Math.max(0, maxAgeSeconds)}`;
}

/** Issues the grant for a recipient of a transfer; answers the cookie that carries it. */
export async function issuePackageGrant(
  db: Db,
  grant: RecipientGrant | LinkGrant,
  now: Date,
): Promise<{ cookie: string; expiresAt: string }> {
  const { token, expiresAt } = await issueToken(db, TRANSFER_PACKAGE_GRANT, { payload: grant, now });
  return {
    cookie: packageGrantCookie(grant.transferId, token, expiresAt - Math.floor(now.getTime() / 1000)),
    expiresAt: new Date(expiresAt * 1000).toISOString(),
  };
}

/** The grant this request carries for this transfer, or null (unknown, expired, revoked or another transfer's). */
async function readPackageGrant(
  db: Db,
  transferId: string,
  cookies: Readonly<Record<string, string>>,
  now: Date,
): Promise<RecipientGrant | LinkGrant | null> {
  const token = cookies[packageGrantCookieName(transferId)];
  if (!token) return null;
  const stored = await readToken(db, TRANSFER_PACKAGE_GRANT, token);
  if (!stored || stored.usedAt || stored.expiresAt <= Math.floor(now.getTime() / 1000)) return null;
  if (stored.payload.transferId !== transferId) return null;
  return stored.payload;
}

/** A link visitor: signed in, as themselves (their downloads and votes are theirs); else anonymous. */
export function linkVisitor(transferId: string, visitorId: string, caller: Caller): LinkVisitorCaller {
  return caller.kind === 'user'
    ? {
        kind: 'link-visitor',
        transferId,
        userId: caller.userId,
        verifiedEmail: caller.verifiedEmail,
        visitorId: `user:${caller.userId}`,
      }
    : { kind: 'link-visitor', transferId, userId: null, verifiedEmail: null, visitorId: `link:${visitorId}` };
}

/**
 * Who opens a package: a valid recipient grant for this transfer (the emailed link); a valid
 * link grant (the link transfer's link), as the signed-in user if there is one; else the
 * signed-in user; 401 for anyone else, as the routes answered when they were for users only.
 */
export async function resolvePackageCaller(
  db: Db,
  options: { transferId: string; caller: Caller; cookies: Readonly<Record<string, string>>; now: Date },
): Promise<PackageCaller> {
  const grant = await readPackageGrant(db, options.transferId, options.cookies, options.now);
  if (grant?.kind === 'link') return linkVisitor(options.transferId, grant.visitorId, options.caller);
  if (grant) {
    const recipient: PackageGrantCaller = {
      kind: 'package-grant',
      transferId: options.transferId,
      userId: grant.userId,
      verifiedEmail: grant.email,
    };
    return recipient;
  }
  if (options.caller.kind === 'user') return options.caller;
  throw new Unauthorized('Log in, or open the link you were emailed, to see this transfer.');
}
