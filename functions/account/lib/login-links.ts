import { createHash, randomBytes } from 'node:crypto';
import { getConfig } from '../../lib/config';
import type { Db } from '../../lib/db/service';
import { HttpError, RateLimited } from '../../lib/errors';
import { claimCooldown, consumeRateLimit, isConditionalCheckFailed, releaseCooldown } from '../../lib/rate-limit';
import { hashToken } from '../../lib/app-auth';

/** A login link works once, for this long. */
export const LOGIN_LINK_LIFETIME_SECONDS = 10 * 60;
/** One login email per address per minute, whether or not an account exists. */
export const LOGIN_EMAIL_COOLDOWN_SECONDS = 60;
/** The whole service's cap on login emails (SES reputation and cost). */
export const LOGIN_EMAILS_PER_HOUR = 500;

const toSeconds = (now: Date) => Math.floor(now.getTime() / 1000);

/** Why a login link cannot be spent: the message tells the person what to do next. */
export class LoginLinkError extends HttpError {
  constructor(code: 'INVALID_LOGIN_LINK' | 'LOGIN_LINK_USED' | 'LOGIN_LINK_EXPIRED', message: string) {
    super(400, code, message);
  }
}

export class InvalidLoginLink extends LoginLinkError {
  constructor() {
    super('INVALID_LOGIN_LINK', 'This login link is not valid. Request a new one.');
  }
}

export class LoginLinkUsed extends LoginLinkError {
  constructor() {
    super('LOGIN_LINK_USED', 'This login link was already used. Request a new one.');
  }
}

export class LoginLinkExpired extends LoginLinkError {
  constructor() {
    super('LOGIN_LINK_EXPIRED', 'This login link has expired (links work for 10 minutes). Request a new one.');
  }
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * The link in the email. The token rides in the fragment, which browsers never send to a
 * server: it cannot end up in access logs or a Referer header. The confirm page reads it and
 * POSTs it to the confirm endpoint.
 */
export function loginLinkUrl(token: string, webOrigin: string = getConfig().webOrigin): string {
  return `${webOrigin}/login/confirm#token=${token}`;
}

export interface IssuedLoginLink {
  token: string;
  url: string;
  /** Epoch seconds. */
  expiresAt: number;
}

/** A fresh 256-bit token; only its SHA-256 is stored, so a table leak yields no usable links. */
export async function issueLoginLink(
  db: Db,
  options: { email: string; contextData?: Record<string, unknown> | undefined; now?: Date },
): Promise<IssuedLoginLink> {
  const now = options.now ?? new Date();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = toSeconds(now) + LOGIN_LINK_LIFETIME_SECONDS;
  await db.entities.loginToken
    .create({
      tokenHash: hashToken(token),
      purpose: 'login',
      email: normaliseEmail(options.email),
      ...(options.contextData ? { contextData: options.contextData } : {}),
      createdAt: now.toISOString(),
      expiresAt,
    })
    .go();
  return { token, url: loginLinkUrl(token), expiresAt };
}

export interface SpentLoginLink {
  email: string;
  contextData: Record<string, unknown> | undefined;
}

/**
 * Spends a login link exactly once. The first read only chooses the error message; the
 * conditional update (unused and unexpired) is what guarantees a link logs in once, even when
 * two requests race with the same link.
 */
export async function spendLoginLink(db: Db, token: string, now: Date = new Date()): Promise<SpentLoginLink> {
  const tokenHash = hashToken(token);
  const nowSeconds = toSeconds(now);
  const { data: link } = await db.entities.loginToken.get({ tokenHash }).go();
  if (!link || link.purpose !== 'login') throw new InvalidLoginLink();
  if (link.usedAt) throw new LoginLinkUsed();
  // TTL deletes expired items days late: the expiry is checked here, not left to DynamoDB.
  if (link.expiresAt <= nowSeconds) throw new LoginLinkExpired();
  try {
    await db.entities.loginToken
      .patch({ tokenHash })
      .set({ usedAt: now.toISOString() })
      .where(({ usedAt, expiresAt }, { notExists, gt }) => `${notExists(usedAt)} AND ${gt(expiresAt, nowSeconds)}`)
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    // Between the read and the write a concurrent request spent the link: read again to say so.
    const { data: current } = await db.entities.loginToken.get({ tokenHash }).go();
    throw current?.usedAt ? new LoginLinkUsed() : new LoginLinkExpired();
  }
  return { email: link.email, contextData: link.contextData as Record<string, unknown> | undefined };
}

/** The per-address cooldown key: a hash, so rate-limit items do not hold addresses in clear. */
export const loginEmailCooldownKey = (email: string) =>
  `login-email:${createHash('sha256').update(normaliseEmail(email)).digest('hex')}`;
const LOGIN_EMAIL_GLOBAL_KEY = 'login-email:all';

/**
 * The login-email policies: one per address per minute (checked first, so hammering one
 * address does not eat into the service-wide budget), then the service-wide hourly cap.
 */
export async function enforceLoginEmailLimits(db: Db, email: string, now: Date = new Date()): Promise<void> {
  const perAddress = await claimCooldown(db, {
    key: loginEmailCooldownKey(email),
    seconds: LOGIN_EMAIL_COOLDOWN_SECONDS,
    now,
  });
  if (!perAddress.allowed) {
    const seconds = perAddress.retryAfterSeconds;
    throw new RateLimited(
      `A login link was just sent to this address. Wait ${seconds} second${seconds === 1 ? '' : 's'} before asking for another.`,
      seconds,
    );
  }
  const overall = await consumeRateLimit(db, {
    key: LOGIN_EMAIL_GLOBAL_KEY,
    limit: LOGIN_EMAILS_PER_HOUR,
    windowSeconds: 3600,
    now,
  });
  if (!overall.allowed) {
    // No email goes out, so the address keeps no cooldown for it.
    await releaseLoginEmailCooldown(db, email);
    throw new RateLimited(
      'Too many login emails are being sent right now. Try again in a few minutes.',
      overall.retryAfterSeconds,
    );
  }
}

/** Gives the address its cooldown back when its email could not be sent, so a retry works at once. */
export function releaseLoginEmailCooldown(db: Db, email: string): Promise<void> {
  return releaseCooldown(db, loginEmailCooldownKey(email));
}
