import type { OauthFailureReason } from '../../../shared/schemas/oauth';
import { type Config, getConfig } from '../../lib/config';
import { BINDING_COOKIE, OAUTH_STATE_LIFETIME_SECONDS, type OauthProvider } from './login-state';

/** The issuer stored on Twitter connections (externalIdentity.issuer). */
export const TWITTER_ISSUER = 'twitter';
/** The provider recorded on a Twitter login state. */
export const TWITTER_STATE_PROVIDER: OauthProvider = 'twitter';
/** Twitter's binding cookie: same name as Google's, but sent only to the Twitter login routes. */
export const TWITTER_BINDING_COOKIE_PATH = '/api/i/user/auth/login/twitter';
export const TWITTER_SCOPE = 'users.read tweet.read';

/** Why a Twitter login or connection failed: the reason of the /login/failed page. */
export type TwitterFailureReason = OauthFailureReason;

export interface TwitterSettings {
  authorizeUrl: URL;
  tokenUrl: URL;
  userUrl: URL;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** Who Twitter says signed in. */
export interface TwitterUser {
  id: string;
  username: string | undefined;
  name: string | undefined;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const TIMEOUT_MS = 5000;

function endpoint(name: string, value: string): URL {
  const url = new URL(value);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    throw new Error(`${name} ${url.href} must use https (plain http is only for a loopback mock)`);
  }
  return url;
}

/** All six settings, or undefined (then the routes answer "not configured"). */
export function twitterSettings(config: Config = getConfig()): TwitterSettings | undefined {
  const { twitterAuthorizeUrl, twitterTokenUrl, twitterUserUrl, twitterClientId, twitterClientSecret, twitterRedirectUri } =
    config;
  if (!twitterAuthorizeUrl || !twitterTokenUrl || !twitterUserUrl) return undefined;
  if (!twitterClientId || !twitterClientSecret || !twitterRedirectUri) return undefined;
  return {
    authorizeUrl: endpoint('TWITTER_AUTHORIZE_URL', twitterAuthorizeUrl),
    tokenUrl: endpoint('TWITTER_TOKEN_URL', twitterTokenUrl),
    userUrl: endpoint('TWITTER_USER_URL', twitterUserUrl),
    clientId: twitterClientId,
    clientSecret: twitterClientSecret,
    redirectUri: twitterRedirectUri,
  };
}

export function twitterAuthorizationUrl(settings: TwitterSettings, login: { state: string; codeChallenge: string }): URL {
  const url = new URL(settings.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', settings.redirectUri);
  url.searchParams.set('scope', TWITTER_SCOPE);
  url.searchParams.set('state', login.state);
  url.searchParams.set('code_challenge', login.codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url;
}

export function twitterBindingCookie(value: string): string {
  return `${BINDING_COOKIE}=${value}; Path=${TWITTER_BINDING_COOKIE_PATH}; HttpOnly; Secure; SameSite=Lax; Max-Age=${OAUTH_STATE_LIFETIME_SECONDS}`;
}

export function clearedTwitterBindingCookie(): string {
  return `${BINDING_COOKIE}=; Path=${TWITTER_BINDING_COOKIE_PATH}; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;
}

/** A provider answer that cannot be used; the message goes to the log only (never a token). */
export class TwitterProviderError extends Error {
  override readonly name = 'TwitterProviderError';
}

async function getJson(response: Response, what: string): Promise<Record<string, unknown>> {
  if (!response.ok) throw new TwitterProviderError(`${what} answered ${response.status}`);
  const body: unknown = await response.json().catch(() => undefined);
  if (!body || typeof body !== 'object') throw new TwitterProviderError(`${what} answered no JSON object`);
  return body as Record<string, unknown>;
}

/** Exchanges the code with the PKCE verifier (client authenticated with HTTP Basic) for an access token. */
export async function exchangeTwitterCode(settings: TwitterSettings, code: string, codeVerifier: string): Promise<string> {
  const basic = Buffer.from(`${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`).toString(
    'base64',
  );
  const response = await fetch(settings.tokenUrl, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: settings.redirectUri,
      code_verifier: codeVerifier,
      client_id: settings.clientId,
    }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const body = await getJson(response, 'The token endpoint');
  if (typeof body.access_token !== 'string' || !body.access_token) {
    throw new TwitterProviderError('The token response has no access token');
  }
  return body.access_token;
}

const optionalString = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** The user behind the access token: Twitter's `{ data: { id, username, name } }`, or a flat `{ id | sub, ... }`. */
export async function fetchTwitterUser(settings: TwitterSettings, accessToken: string): Promise<TwitterUser> {
  const response = await fetch(settings.userUrl, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const body = await getJson(response, 'The user endpoint');
  const user = (body.data && typeof body.data === 'object' ? body.data : body) as Record<string, unknown>;
  const rawId = user.id ?? user.sub;
  const id = typeof rawId === 'number' ? String(rawId) : optionalString(rawId);
  if (!id || id.length > 255) throw new TwitterProviderError('The user endpoint answered no usable user id');
  return { id, username: optionalString(user.username), name: optionalString(user.name) };
}
