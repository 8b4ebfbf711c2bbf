import { randomBytes, randomUUID } from 'node:crypto';
import { SESSION_HEADER, SIGNED_IN_HINT_COOKIE } from '../../shared/constants';
import { hashToken } from './app-auth';
import { writeBatch } from './db/batches';
import type { SessionItem } from './db/entities/session';
import type { Db } from './db/service';
import type { UserCaller } from './http/caller';
import { isConditionalCheckFailed } from './db/errors';
import { verifiedEmailOfUser } from './db/users';
import { LruCache } from './lru-cache';

export const SESSION_COOKIE = SESSION_HEADER;
export const SESSION_LIFETIME_SECONDS = 60 * 24 * 3600;
/**
 * Using a session records when it was last used (the sessions list shows it) and pushes its
 * expiry out again, in one write at most every five minutes per session, not one per call: the
 * list is precise to a few minutes, and a busy session costs at most twelve writes an hour.
 */
export const SESSION_TOUCH_INTERVAL_MS = 5 * 60 * 1000;
/**
 * The cookie outlives the server-side expiry (browsers cap cookies at 400 days); the server
 * decides whether a session is alive, so a renewed session needs no new cookie.
 */
const COOKIE_MAX_AGE_SECONDS = 400 * 24 * 3600;

const nowSeconds = (now: Date) => Math.floor(now.getTime() / 1000);

export interface CookieOptions {
  /** The apps' parent domain (single sign-on across sibling apps); absent locally. */
  domain?: string | undefined;
}

export function sessionCookie(token: string, options: CookieOptions = {}): string {
  const domain = options.domain ? `; Domain=${options.domain}` : '';
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${COOKIE_MAX_AGE_SECONDS}${domain}`;
}

/**
 * The page-readable hint that someone may be signed in (SIGNED_IN_HINT_COOKIE): it carries
 * nothing but "1", and lets a visitor's page skip asking who they are (a request that could only
 * answer 401). It lives as long as the session cookie.
 */
export function signedInHintCookie(options: CookieOptions = {}): string {
  const domain = options.domain ? `; Domain=${options.domain}` : '';
  return `${SIGNED_IN_HINT_COOKIE}=1; Path=/; Secure; SameSite=Lax; Max-Age=${COOKIE_MAX_AGE_SECONDS}${domain}`;
}

/** What a login sets: the session, and the hint beside it. */
export function sessionCookies(token: string, options: CookieOptions = {}): string[] {
  return [sessionCookie(token, options), signedInHintCookie(options)];
}

export function clearedSessionCookie(options: CookieOptions = {}): string {
  const domain = options.domain ? `; Domain=${options.domain}` : '';
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0${domain}`;
}

function clearedHintCookie(options: CookieOptions = {}): string {
  const domain = options.domain ? `; Domain=${options.domain}` : '';
  return `${SIGNED_IN_HINT_COOKIE}=; Path=/; Secure; SameSite=Lax; Max-Age=0${domain}`;
}

/**
 * Cookies that end a browser session: the session and its hint, host-only and, when configured,
 * on the parent domain.
 */
export function clearedSessionCookies(options: CookieOptions = {}): string[] {
  const hostOnly = [clearedSessionCookie(), clearedHintCookie()];
  return options.domain ? [...hostOnly, clearedSessionCookie(options), clearedHintCookie(options)] : hostOnly;
}

/** A fresh 256-bit token for every login; only its hash is stored. */
export async function createSession(
  db: Db,
  userId: string,
  options: { userAgent?: string | undefined; now?: Date } = {},
): Promise<{ token: string; sessionId: string }> {
  const now = options.now ?? new Date();
  const token = randomBytes(32).toString('base64url');
  const sessionId = randomUUID();
  await db.entities.session
    .create({
      tokenHash: hashToken(token),
      sessionId,
      userId,
      createdAt: now.toISOString(),
      lastUsedAt: now.toISOString(),
      userAgent: (options.userAgent ?? '').slice(0, 300),
      expiresAt: nowSeconds(now) + SESSION_LIFETIME_SECONDS,
    })
    .go();
  return { token, sessionId };
}

/**
 * Whose each session is, by token hash, as a warm function learnt it. A session never changes
 * hands, so with this the session and its user are read at once, both fresh on every call: a
 * logout, an expiry or a change to the user shows at the next call as before. Only the first
 * call with a token in a function reads them one after the other.
 */
const sessionOwners = new LruCache<string>(10_000);

export interface ResolvedSession {
  caller: UserCaller;
  tokenHash: string;
  /**
   * Last used (renewed) over SESSION_TOUCH_INTERVAL_MS ago: a route allowed to write records the
   * use and pushes the expiry out (renewSession).
   */
  renewalDue: boolean;
}

/**
 * The signed-in user behind a token, or null when the token is unknown or expired. Read-only:
 * every route resolves its caller, and most routes may only read the table.
 */
export async function resolveSession(db: Db, token: string, now: Date = new Date()): Promise<ResolvedSession | null> {
  if (token.length < 20 || token.length > 100) return null;
  const tokenHash = hashToken(token);
  const knownUserId = sessionOwners.get(tokenHash);
  const [{ data: session }, knownUser] = await Promise.all([
    db.entities.session.get({ tokenHash }).go(),
    knownUserId === undefined ? undefined : db.entities.user.get({ userId: knownUserId }).go(),
  ]);
  // TTL deletion is late by up to days: the expiry is checked here, not left to DynamoDB.
  if (!session || session.expiresAt <= nowSeconds(now)) return null;
  sessionOwners.set(tokenHash, session.userId);
  const { data: user } =
    knownUser && session.userId === knownUserId ? knownUser : await db.entities.user.get({ userId: session.userId }).go();
  if (!user) return null;
  return {
    caller: {
      kind: 'user',
      userId: user.userId,
      sessionId: session.sessionId,
      isSuperUser: user.isSuperUser ?? false,
      verifiedEmail: verifiedEmailOfUser(user),
    },
    tokenHash,
    renewalDue: now.getTime() - Date.parse(session.lastUsedAt) > SESSION_TOUCH_INTERVAL_MS,
  };
}

/**
 * Records a use of the session (lastUsedAt) and pushes its expiry out again. Conditional on the
 * session still existing, so a renewal racing a logout cannot bring the session back, and on its
 * last use being older than the interval, so of several requests that all saw it due only the
 * first one writes (the others' condition fails, and that is no error).
 */
export async function renewSession(db: Db, tokenHash: string, now: Date = new Date()): Promise<void> {
  const dueBefore = new Date(now.getTime() - SESSION_TOUCH_INTERVAL_MS).toISOString();
  try {
    await db.entities.session
      .patch({ tokenHash })
      .set({ lastUsedAt: now.toISOString(), expiresAt: nowSeconds(now) + SESSION_LIFETIME_SECONDS })
      .where(({ lastUsedAt }, { lt }) => lt(lastUsedAt, dueBefore))
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

/** Logout: the session is deleted server-side, so the token is dead even if a copy survives. */
export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.entities.session.delete({ tokenHash: hashToken(token) }).go();
}

/** Every stored session of a user, newest first, expired ones included (TTL deletes late). */
async function allSessionsOf(db: Db, userId: string): Promise<SessionItem[]> {
  const { data } = await db.entities.session.query.byUser({ userId }).go({ pages: 'all', order: 'desc' });
  return data;
}

/** Deletes sessions by their keys (BatchWriteItem, unprocessed ones sent again). */
function deleteSessionItems(db: Db, sessions: readonly SessionItem[]): Promise<void> {
  return writeBatch({
    items: sessions.map((session) => ({ tokenHash: session.tokenHash })),
    send: (keys) => db.entities.session.delete(keys).go(),
    keyOf: (key) => key.tokenHash,
    what: 'sessions',
  });
}

export interface SessionSummary {
  sessionId: string;
  createdAt: string;
  lastUsedAt: string;
  userAgent: string;
}

const toSummary = (session: SessionItem): SessionSummary => ({
  sessionId: session.sessionId,
  createdAt: session.createdAt,
  lastUsedAt: session.lastUsedAt,
  userAgent: session.userAgent ?? '',
});

/** A user's live sessions, newest first (one Query of gsi1); never the token hash. */
export async function listSessions(db: Db, userId: string, now: Date = new Date()): Promise<SessionSummary[]> {
  const sessions = await allSessionsOf(db, userId);
  return sessions.filter((session) => session.expiresAt > nowSeconds(now)).map(toSummary);
}

async function findOwnSession(db: Db, userId: string, sessionId: string): Promise<SessionItem | undefined> {
  return (await allSessionsOf(db, userId)).find((candidate) => candidate.sessionId === sessionId);
}

/**
 * The session behind a token, read from the table (not from gsi1, which lags a moment behind a
 * fresh login), or null when unknown. Expiry is not checked: resolveSession does that per request.
 */
export async function getSessionByToken(db: Db, token: string): Promise<(SessionSummary & { userId: string }) | null> {
  const { data: session } = await db.entities.session.get({ tokenHash: hashToken(token) }).go({ consistent: true });
  return session ? { ...toSummary(session), userId: session.userId } : null;
}

/**
 * Whether the session stored under this token hash is still alive and belongs to this user
 * (read from the table, consistent: a session that just ended must not pass).
 */
export async function isSessionAlive(db: Db, options: { tokenHash: string; userId: string; now?: Date }): Promise<boolean> {
  const { data: session } = await db.entities.session.get({ tokenHash: options.tokenHash }).go({ consistent: true });
  return Boolean(session && session.userId === options.userId && session.expiresAt > nowSeconds(options.now ?? new Date()));
}

/**
 * Ends one of the user's own sessions, found in that user's gsi1 partition only: another user's
 * session id is simply not there, so it answers false exactly as an unknown id does.
 */
export async function endSession(db: Db, userId: string, sessionId: string): Promise<boolean> {
  const session = await findOwnSession(db, userId, sessionId);
  if (!session) return false;
  await db.entities.session.delete({ tokenHash: session.tokenHash }).go();
  return true;
}

/**
 * Ends every session of a user (expired ones too); answers how many were deleted. gsi1 lags a
 * moment behind writes, so a session created in that moment can survive: callers that must be
 * sure (account deletion) also remove what resolveSession needs, the user item.
 */
export async function endAllSessions(db: Db, userId: string): Promise<number> {
  const sessions = await allSessionsOf(db, userId);
  await deleteSessionItems(db, sessions);
  return sessions.length;
}
