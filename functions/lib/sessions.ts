import { randomBytes, randomUUID } from 'node:crypto';
import { SESSION_HEADER } from '../../shared/constants';
import { hashToken } from './app-auth';
import type { Db } from './db/service';
import type { UserCaller } from './http/caller';

export const SESSION_COOKIE = SESSION_HEADER;
export const SESSION_LIFETIME_SECONDS = 60 * 24 * 3600;
/** Using a session pushes its expiry out again, but at most once a day (one write, not one per call). */
const RENEW_AFTER_MS = 24 * 3600 * 1000;
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

export function clearedSessionCookie(options: CookieOptions = {}): string {
  const domain = options.domain ? `; Domain=${options.domain}` : '';
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0${domain}`;
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

/** The signed-in user behind a token, or null when the token is unknown or expired. */
export async function resolveSession(db: Db, token: string, now: Date = new Date()): Promise<UserCaller | null> {
  if (token.length < 20 || token.length > 100) return null;
  const { data: session } = await db.entities.session.get({ tokenHash: hashToken(token) }).go();
  // TTL deletion is late by up to days: the expiry is checked here, not left to DynamoDB.
  if (!session || session.expiresAt <= nowSeconds(now)) return null;
  const { data: user } = await db.entities.user.get({ userId: session.userId }).go();
  if (!user) return null;
  if (now.getTime() - Date.parse(session.lastUsedAt) > RENEW_AFTER_MS) {
    await db.entities.session
      .patch({ tokenHash: session.tokenHash })
      .set({ lastUsedAt: now.toISOString(), expiresAt: nowSeconds(now) + SESSION_LIFETIME_SECONDS })
      .go();
  }
  return { kind: 'user', userId: user.userId, sessionId: session.sessionId, isSuperUser: user.isSuperUser ?? false };
}

/** Logout: the session is deleted server-side, so the token is dead even if a copy survives. */
export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.entities.session.delete({ tokenHash: hashToken(token) }).go();
}
