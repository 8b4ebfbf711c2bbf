import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { OauthFailureReason } from '../../../shared/schemas/oauth';
import type { Db } from '../../lib/db/service';
import { defineTokenPurpose, issueToken, spendToken, type TokenPurpose } from '../../lib/one-time-tokens';

/** A login must come back from the provider within this long. */
export const OAUTH_STATE_LIFETIME_SECONDS = 10 * 60;
/** The browser-binding cookie: sent only to the Google login routes. */
export const BINDING_COOKIE = 'toppubs_oauth';
export const BINDING_COOKIE_PATH = '/api/i/user/auth/login/google';

export type OauthProvider = 'google' | 'twitter';

/**
 * One login in flight, stored under its `state` (a one-time token): what the callback needs to
 * finish it (PKCE verifier, nonce, where to go afterwards) and the hash of the browser-binding
 * cookie, so only the browser that started the login can finish it.
 */
export interface OauthLogin {
  nonce: string;
  codeVerifier: string;
  /** SHA-256 of the random value in the browser-binding cookie. */
  bindingHash: string;
  /** Same-origin path to land on after the login. */
  returnTo: string;
}

/** One purpose per provider: a state is only good at the callback of the provider it was started for. */
const OAUTH_STATES: Record<OauthProvider, TokenPurpose<OauthLogin>> = {
  google: defineTokenPurpose<OauthLogin>('oauth-google', { lifetimeSeconds: OAUTH_STATE_LIFETIME_SECONDS }),
  twitter: defineTokenPurpose<OauthLogin>('oauth-twitter', { lifetimeSeconds: OAUTH_STATE_LIFETIME_SECONDS }),
};

/** The token purpose of a provider's login states (for reading one back in tests and support). */
export const oauthStatePurpose = (provider: OauthProvider) => OAUTH_STATES[provider];

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Why a login cannot finish; the reason goes to the /login/failed page, the message to the log. */
export class OauthFailure extends Error {
  constructor(
    readonly reason: OauthFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'OauthFailure';
  }
}

export interface StartedLogin {
  state: string;
  nonce: string;
  codeChallenge: string;
  /** The browser-binding value: goes in the cookie only; the table holds its hash. */
  binding: string;
}

/**
 * A new login in flight: the state is a one-time token (256 random bits, stored hashed), with
 * openid-client's nonce and PKCE verifier and the binding value's hash, for 10 minutes.
 */
export async function startLogin(
  db: Db,
  options: { provider: OauthProvider; returnTo: string; now?: Date },
): Promise<StartedLogin> {
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const binding = randomBytes(32).toString('base64url');
  const { token: state } = await issueToken(db, OAUTH_STATES[options.provider], {
    payload: { nonce, codeVerifier, bindingHash: sha256(binding), returnTo: options.returnTo },
    now: options.now,
  });
  return { state, nonce, codeChallenge: await client.calculatePKCECodeChallenge(codeVerifier), binding };
}

export function bindingCookie(value: string): string {
  return `${BINDING_COOKIE}=${value}; Path=${BINDING_COOKIE_PATH}; HttpOnly; Secure; SameSite=Lax; Max-Age=${OAUTH_STATE_LIFETIME_SECONDS}`;
}

export function clearedBindingCookie(): string {
  return `${BINDING_COOKIE}=; Path=${BINDING_COOKIE_PATH}; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;
}

function sameHash(value: string, expectedHash: string): boolean {
  const actual = Buffer.from(sha256(value), 'hex');
  const expected = Buffer.from(expectedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Spends a login's state exactly once, and only from the browser that started it (checked
 * before anything else, so another browser learns nothing about the state).
 */
export async function spendLoginState(
  db: Db,
  options: { state: string; binding: string | undefined; provider: OauthProvider; now?: Date },
): Promise<OauthLogin> {
  const outcome = await spendToken(db, OAUTH_STATES[options.provider], options.state, {
    now: options.now,
    check: (login) => {
      if (!options.binding || !sameHash(options.binding, login.bindingHash)) {
        throw new OauthFailure('browser_mismatch', 'The browser-binding cookie is missing or belongs to another login');
      }
    },
  });
  if (outcome.spent) return outcome.payload;
  switch (outcome.failure) {
    case 'used':
      throw new OauthFailure('state_used', 'This OAuth state was already used');
    case 'expired':
      throw new OauthFailure('state_expired', 'This OAuth state has expired');
    default:
      throw new OauthFailure('invalid_state', 'Unknown OAuth state');
  }
}

export type CallbackCheck = { login: OauthLogin; code: string } | { reason: OauthFailureReason; detail: string };

/**
 * What every OAuth callback checks before talking to its provider: that the provider is
 * configured, what the provider answered, and the state (known, for this provider, from this
 * browser, unused, unexpired), which is spent here.
 */
export async function checkCallback(
  db: Db,
  options: {
    provider: OauthProvider;
    configured: boolean;
    query: { code?: string | undefined; state?: string | undefined; error?: string | undefined };
    binding: string | undefined;
  },
): Promise<CallbackCheck> {
  const { query } = options;
  if (!options.configured) return { reason: 'not_configured', detail: `${options.provider} login is not configured` };
  if (query.error) {
    return {
      reason: query.error === 'access_denied' ? 'cancelled' : 'provider_error',
      detail: `Provider answered ${query.error.slice(0, 100)}`,
    };
  }
  if (!query.code || !query.state) return { reason: 'invalid_request', detail: 'The callback has no code or no state' };
  try {
    const login = await spendLoginState(db, { state: query.state, binding: options.binding, provider: options.provider });
    return { login, code: query.code };
  } catch (error) {
    if (error instanceof OauthFailure) return { reason: error.reason, detail: error.message };
    throw error;
  }
}
