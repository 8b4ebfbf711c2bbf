import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as client from 'openid-client';
import type { OauthFailureReason } from '../../../shared/schemas/oauth';
import type { OauthStateItem } from '../../lib/db/entities/oauth-state';
import type { Db } from '../../lib/db/service';
import { isConditionalCheckFailed } from '../../lib/rate-limit';

/** A login must come back from the provider within this long. */
export const OAUTH_STATE_LIFETIME_SECONDS = 10 * 60;
/** The browser-binding cookie: sent only to the Google login routes. */
export const BINDING_COOKIE = 'toppubs_oauth';
export const BINDING_COOKIE_PATH = '/api/i/user/auth/login/google';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const toSeconds = (now: Date) => Math.floor(now.getTime() / 1000);

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
 * A new login in flight: state, nonce and PKCE verifier from openid-client, stored under the
 * state's hash with the binding value's hash, for 10 minutes.
 */
export async function startLogin(
  db: Db,
  options: { provider: OauthStateItem['provider']; returnTo: string; now?: Date },
): Promise<StartedLogin> {
  const now = options.now ?? new Date();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const binding = randomBytes(32).toString('base64url');
  await db.entities.oauthState
    .create({
      stateHash: sha256(state),
      provider: options.provider,
      nonce,
      codeVerifier,
      bindingHash: sha256(binding),
      returnTo: options.returnTo,
      createdAt: now.toISOString(),
      expiresAt: toSeconds(now) + OAUTH_STATE_LIFETIME_SECONDS,
    })
    .go();
  return { state, nonce, codeChallenge: await client.calculatePKCECodeChallenge(codeVerifier), binding };
}

export function bindingCookie(value: string): string {
  return `${BINDING_COOKIE}=${value}; Path=${BINDING_COOKIE_PATH}; HttpOnly; Secure; SameSite=Lax; Max-Age=${OAUTH_STATE_LIFETIME_SECONDS}`;
}

export function clearedBindingCookie(): string {
  return `${BINDING_COOKIE}=; Path=${BINDING_COOKIE_PATH}; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;
}

export function readCookie(event: APIGatewayProxyEventV2, name: string): string | undefined {
  for (const cookie of event.cookies ?? []) {
    const separator = cookie.indexOf('=');
    if (separator > 0 && cookie.slice(0, separator).trim() === name) return cookie.slice(separator + 1).trim() || undefined;
  }
  return undefined;
}

function sameHash(value: string, expectedHash: string): boolean {
  const actual = Buffer.from(sha256(value), 'hex');
  const expected = Buffer.from(expectedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Spends a login's state exactly once, and only from the browser that started it. The reads
 * choose the reason; the conditional update (unused and unexpired) is what makes a state work
 * once even when two callbacks race.
 */
export async function spendLoginState(
  db: Db,
  options: { state: string; binding: string | undefined; provider: OauthStateItem['provider']; now?: Date },
): Promise<OauthStateItem> {
  const now = options.now ?? new Date();
  const nowSeconds = toSeconds(now);
  const stateHash = sha256(options.state);
  const { data: login } = await db.entities.oauthState.get({ stateHash }).go({ consistent: true });
  // A state is only good at the callback of the provider it was started for.
  if (!login || login.provider !== options.provider) throw new OauthFailure('invalid_state', 'Unknown OAuth state');
  if (!options.binding || !sameHash(options.binding, login.bindingHash)) {
    throw new OauthFailure('browser_mismatch', 'The browser-binding cookie is missing or belongs to another login');
  }
  if (login.usedAt) throw new OauthFailure('state_used', 'This OAuth state was already used');
  if (login.expiresAt <= nowSeconds) throw new OauthFailure('state_expired', 'This OAuth state has expired');
  try {
    await db.entities.oauthState
      .patch({ stateHash })
      .set({ usedAt: now.toISOString() })
      .where(({ usedAt, expiresAt }, { notExists, gt }) => `${notExists(usedAt)} AND ${gt(expiresAt, nowSeconds)}`)
      .go();
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    throw new OauthFailure('state_used', 'A concurrent callback spent this OAuth state first');
  }
  return login;
}

export type CallbackCheck = { login: OauthStateItem; code: string } | { reason: OauthFailureReason; detail: string };

/**
 * What every OAuth callback checks before talking to its provider: that the provider is
 * configured, what the provider answered, and the state (known, for this provider, from this
 * browser, unused, unexpired), which is spent here.
 */
export async function checkCallback(
  db: Db,
  options: {
    provider: OauthStateItem['provider'];
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
