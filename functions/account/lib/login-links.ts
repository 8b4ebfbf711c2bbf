import { getConfig } from '../../lib/config';
import type { Db } from '../../lib/db/service';
import { HttpError } from '../../lib/errors';
import { defineTokenPurpose, issueToken, spendToken } from '../../lib/one-time-tokens';

/** A login link works once, for this long. */
export const LOGIN_LINK_LIFETIME_SECONDS = 10 * 60;

/** What a login link stands for: the (lower-cased) address it was sent to, and the page's context. */
export interface LoginLinkPayload {
  email: string;
  contextData?: Record<string, unknown>;
}

export const LOGIN_LINK = defineTokenPurpose<LoginLinkPayload>('login', { lifetimeSeconds: LOGIN_LINK_LIFETIME_SECONDS });

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

/** A fresh login link for an address; only the token's SHA-256 is stored, so a table leak yields no usable links. */
export async function issueLoginLink(
  db: Db,
  options: { email: string; contextData?: Record<string, unknown> | undefined; now?: Date },
): Promise<IssuedLoginLink> {
  const payload: LoginLinkPayload = {
    email: normaliseEmail(options.email),
    ...(options.contextData ? { contextData: options.contextData } : {}),
  };
  const { token, expiresAt } = await issueToken(db, LOGIN_LINK, { payload, ...(options.now ? { now: options.now } : {}) });
  return { token, url: loginLinkUrl(token), expiresAt };
}

export interface SpentLoginLink {
  email: string;
  contextData: Record<string, unknown> | undefined;
}

/** Spends a login link exactly once; unknown, used and expired links each get their own 400. */
export async function spendLoginLink(db: Db, token: string, now: Date = new Date()): Promise<SpentLoginLink> {
  const outcome = await spendToken(db, LOGIN_LINK, token, { now });
  if (outcome.spent) return { email: outcome.payload.email, contextData: outcome.payload.contextData };
  switch (outcome.failure) {
    case 'used':
      throw new LoginLinkUsed();
    case 'expired':
      throw new LoginLinkExpired();
    default:
      throw new InvalidLoginLink();
  }
}
