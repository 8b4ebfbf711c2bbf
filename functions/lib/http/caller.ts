import type { Access, AccessLevel } from '../../../shared/routes/define-route';
import { APP_TOKEN_HEADER, APPLICATION_ID_HEADER, SESSION_HEADER } from '../../../shared/constants';
import { verifyAppCredentials } from '../app-auth';
import { getDb } from '../db/service';
import { Unauthorized } from '../errors';
import { type ResolvedSession, resolveSession } from '../sessions';

export interface AnonymousCaller {
  kind: 'anonymous';
}
export interface UserCaller {
  kind: 'user';
  userId: string;
  sessionId: string;
  isSuperUser: boolean;
  /**
   * Their address, lower-cased, when they verified it (null otherwise): the key of what was sent
   * to them (a transfer's recipients are addresses). Read with the session, so it is current.
   */
  verifiedEmail: string | null;
}
export type SuperUserCaller = UserCaller & { isSuperUser: true };
/** A registered sibling app's server, proven by its app id and private token. */
export interface AppCaller {
  kind: 'app';
  appId: string;
}
export type Caller = AnonymousCaller | UserCaller | AppCaller;

type CallerOfLevel<L extends AccessLevel> = L extends 'public'
  ? Caller
  : L extends 'user'
    ? UserCaller
    : L extends 'superuser'
      ? SuperUserCaller
      : L extends 'app'
        ? AppCaller
        : never;

/** The caller a route's access level guarantees: a `user` route's handler always gets a user. */
export type CallerFor<A extends Access> = A extends readonly (infer L extends AccessLevel)[]
  ? CallerOfLevel<L>
  : A extends AccessLevel
    ? CallerOfLevel<A>
    : never;

/** Turns a session token into the signed-in user, or null when it is unknown or expired. Never writes. */
export type SessionResolver = (token: string) => Promise<ResolvedSession | null>;

// Sessions live in the table; tests may swap the resolver.
let sessionResolver: SessionResolver = (token) => resolveSession(getDb(), token);

export function setSessionResolver(resolver: SessionResolver): void {
  sessionResolver = resolver;
}

/** The session token from the `ssoat` header (non-browser callers) or the session cookie. */
export function readSessionToken(headers: Record<string, string>, cookies: Readonly<Record<string, string>>): string | undefined {
  return headers[SESSION_HEADER] || cookies[SESSION_HEADER] || undefined;
}

export interface ResolvedCaller {
  caller: Caller;
  /** Set when the caller came with a live session. */
  session?: ResolvedSession;
}

const ANONYMOUS: ResolvedCaller = { caller: { kind: 'anonymous' } };

export async function resolveCaller(headers: Record<string, string>, sessionToken: string | undefined): Promise<ResolvedCaller> {
  const appToken = headers[APP_TOKEN_HEADER];
  if (appToken !== undefined) {
    const appId = headers[APPLICATION_ID_HEADER];
    if (!appId || !(await verifyAppCredentials(appId, appToken))) {
      throw new Unauthorized('The app id and app token do not match a registered app.');
    }
    return { caller: { kind: 'app', appId } };
  }
  if (!sessionToken) return ANONYMOUS;
  const session = await sessionResolver(sessionToken);
  return session ? { caller: session.caller, session } : ANONYMOUS;
}
