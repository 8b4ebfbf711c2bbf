import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MutableToken } from 'oauth2-mock-server';
import type { SettingName } from '../../shared/capabilities';

/** Local-only client credentials for the mock Google provider: never used outside the local runtime. */
export const LOCAL_GOOGLE_CLIENT_ID = 'toppubs-local-google-client';
export const LOCAL_GOOGLE_CLIENT_SECRET = 'local-dev-google-secret-not-for-production';
/** The callback route's path (shared/routes/oauth.ts googleCallback). */
const CALLBACK_PATH = '/api/i/user/auth/login/google/callback';
/** Local-only client credentials for the mock Twitter-style provider (the same mock server). */
export const LOCAL_TWITTER_CLIENT_ID = 'toppubs-local-twitter-client';
export const LOCAL_TWITTER_CLIENT_SECRET = 'local-dev-twitter-secret-not-for-production';
/** The Twitter callback route's path (shared/routes/oauth.ts twitterCallback). */
const TWITTER_CALLBACK_PATH = '/api/i/user/auth/login/twitter/callback';

/** Who the mock provider signs in; `nonce` (tests only) replaces the one the login asked for. */
export interface MockGoogleLogin {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  nonce?: string;
}

/** What 'Continue with Google' signs in as locally, unless a test chose someone else. */
export const DEFAULT_LOCAL_GOOGLE_LOGIN: MockGoogleLogin = {
  sub: 'local-google-user',
  email: 'google.user@example.com',
  email_verified: true,
  name: 'Google User',
};

export interface LocalOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The Google and Twitter settings pointing at this provider, for the routes that declare them. */
  settings: Partial<Record<SettingName, string>>;
  /** The user the next token exchange signs in (after it, the default local user again). */
  setNextLogin(login: MockGoogleLogin): void;
  stop(): Promise<void>;
}

let current: LocalOidcProvider | undefined;

/** The mock provider of the running local runtime (tests choose who it signs in through it). */
export function getLocalOidcProvider(): LocalOidcProvider {
  if (!current) throw new Error('The local runtime has not started its mock Google provider');
  return current;
}

/**
 * oauth2-mock-server as the local Google: an OpenID provider on a free loopback port whose
 * authorize endpoint redirects straight back with a code (no login page). Sets GOOGLE_ISSUER,
 * GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_REDIRECT_URI: call it before importing the
 * handlers, which read their configuration at import.
 *
 * Only its port is taken at start, so the routes know the issuer at once; oauth2-mock-server
 * (Express under it) and its signing key are loaded and made for the provider's first request.
 * They were a sixth of a second of every test file's fork and every `npm start`, and few of
 * them sign in with Google or Twitter.
 */
export async function startLocalOidcProvider(options: {
  appUrl: string;
  log?: (line: string) => void;
}): Promise<LocalOidcProvider> {
  const upcoming: MockGoogleLogin[] = [];
  let issuer = '';
  let mock: Promise<RequestListener> | undefined;

  const startMock = async (): Promise<RequestListener> => {
    const { OAuth2Issuer, OAuth2Service } = await import('oauth2-mock-server');
    // What OAuth2Server makes and sets on start, around the server of ours already listening.
    const mockIssuer = new OAuth2Issuer();
    mockIssuer.url = issuer;
    await mockIssuer.keys.generate('RS256');
    const service = new OAuth2Service(mockIssuer);

    // Fired for both tokens of an exchange: the access token first, then the ID token (the one with `aud`).
    service.on('beforeTokenSigning', (token: MutableToken) => {
      const login = upcoming[0] ?? DEFAULT_LOCAL_GOOGLE_LOGIN;
      const payload = token.payload as Record<string, unknown>;
      payload.sub = login.sub;
      for (const claim of ['email', 'email_verified', 'name'] as const) {
        if (login[claim] === undefined) delete payload[claim];
        else payload[claim] = login[claim];
      }
      if (payload.aud !== undefined) {
        if (login.nonce !== undefined) payload.nonce = login.nonce;
        upcoming.shift();
      }
    });

    // The Twitter-style user endpoint: answers for the access token's subject, as Twitter's /2/users/me does.
    service.on('beforeUserinfo', (response: { body: unknown }, req: { headers: Record<string, unknown> }) => {
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      const payload = bearer?.split('.')[1];
      if (!payload) return;
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
      const name = typeof claims.name === 'string' ? claims.name : undefined;
      response.body = { sub: claims.sub, data: { id: claims.sub, name, username: name?.replace(/\W/g, '').toLowerCase() } };
    });
    return service.requestHandler;
  };

  const mockHandler = (): Promise<RequestListener> => {
    mock ??= startMock().catch((error: unknown) => {
      // Tried again on the next request.
      mock = undefined;
      throw error;
    });
    return mock;
  };
  const server = createServer(async (request, response) => {
    let handle: RequestListener;
    try {
      handle = await mockHandler();
    } catch (error) {
      options.log?.(`Mock Google sign-in could not start: ${(error as Error).message}`);
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('The mock sign-in provider could not start');
      return;
    }
    handle(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  // As oauth2-mock-server names a loopback issuer.
  issuer = `http://localhost:${(server.address() as AddressInfo).port}`;

  const redirectUri = `${options.appUrl}${CALLBACK_PATH}`;
  const settings: Partial<Record<SettingName, string>> = {
    GOOGLE_ISSUER: issuer,
    GOOGLE_CLIENT_ID: LOCAL_GOOGLE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: LOCAL_GOOGLE_CLIENT_SECRET,
    GOOGLE_REDIRECT_URI: redirectUri,
    TWITTER_AUTHORIZE_URL: new URL('/authorize', issuer).href,
    TWITTER_TOKEN_URL: new URL('/token', issuer).href,
    TWITTER_USER_URL: new URL('/userinfo', issuer).href,
    TWITTER_CLIENT_ID: LOCAL_TWITTER_CLIENT_ID,
    TWITTER_CLIENT_SECRET: LOCAL_TWITTER_CLIENT_SECRET,
    TWITTER_REDIRECT_URI: `${options.appUrl}${TWITTER_CALLBACK_PATH}`,
  };
  options.log?.(
    `Mock Google sign-in (oauth2-mock-server) at ${issuer}: 'Continue with Google' signs in as ${DEFAULT_LOCAL_GOOGLE_LOGIN.email}`,
  );

  const provider: LocalOidcProvider = {
    issuer,
    clientId: LOCAL_GOOGLE_CLIENT_ID,
    clientSecret: LOCAL_GOOGLE_CLIENT_SECRET,
    redirectUri,
    settings,
    setNextLogin: (login) => {
      upcoming.push({ ...login });
    },
    stop: async () => {
      if (current === provider) current = undefined;
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
  current = provider;
  return provider;
}
