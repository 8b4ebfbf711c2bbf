import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrCreateUserByEmail } from '../../functions/lib/accounts';
import { signInWithProvider } from '../../functions/account/lib/external-accounts';
import { getDb } from '../../functions/lib/db/service';
import { googleSettings } from '../../functions/account/lib/google-provider';
import { oauthStatePurpose, startLogin } from '../../functions/account/lib/login-state';
import { readToken } from '../../functions/lib/one-time-tokens';
import { loadConfig } from '../../functions/lib/config';
import { getLocalOidcProvider, type MockGoogleLogin } from '../../infra/local/oidc-provider';
import { routes } from '../../shared/routes';
import { type ApiClient, createApiClient, expectError, expectOk, userIdOf } from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { authorizeAtProvider, callback, type CallbackAnswer, startOauthLogin, type StartedLogin } from '../support/oauth';
import { uniqueEmail, uniqueName } from '../support/unique';

const BINDING = /^toppubs_oauth=([\w-]+); Path=\/api\/i\/user\/auth\/login\/google; HttpOnly; Secure; SameSite=Lax; Max-Age=600$/;
const CLEARED_BINDING = 'toppubs_oauth=; Path=/api/i/user/auth/login/google; HttpOnly; Secure; SameSite=Lax; Max-Age=0';

let runtime: TestRuntime;
let api: ApiClient;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function startGoogleLogin(returnTo = '/after-login'): Promise<StartedLogin> {
  return startOauthLogin(api, routes.googleLoginUrl, { binding: BINDING, returnTo });
}

const googleCallback = (callbackUrl: string, cookie?: string) =>
  callback(api, routes.googleCallback, callbackUrl, cookie === undefined ? {} : { cookie });

/** A whole Google login, following the redirects by hand and carrying the cookie, as a browser does. */
async function loginWithGoogle(login?: MockGoogleLogin, returnTo?: string) {
  if (login) getLocalOidcProvider().setNextLogin(login);
  const started = await startGoogleLogin(returnTo);
  const callbackUrl = await authorizeAtProvider(started.url);
  return { ...(await googleCallback(callbackUrl, started.cookie)), callbackUrl, cookie: started.cookie };
}

function expectRefused(answer: CallbackAnswer, reason: string) {
  expect(answer.status).toBe(302);
  expect(answer.location).toBe(`/login/failed?reason=${reason}`);
  expect(answer.sessionToken).toBeUndefined();
  expect(answer.cookies).toEqual([CLEARED_BINDING]);
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = createApiClient(runtime);
});

afterAll(async () => {
  await runtime?.close();
});

describe('starting a Google login', () => {
  it('is off until issuer, client id, secret and redirect URI are all configured', () => {
    // Prepare
    const base = { TABLE_NAME: 't', ALLOWED_ORIGINS: 'https://app.example.com', DECLARED_SETTINGS: 'google' };
    const full = {
      ...base,
      GOOGLE_ISSUER: 'https://accounts.google.com',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 'secret',
      GOOGLE_REDIRECT_URI: 'https://app.example.com/api/i/user/auth/login/google/callback',
    };

    // Act
    const off = googleSettings(loadConfig(base));
    const partial = googleSettings(loadConfig({ ...full, GOOGLE_CLIENT_SECRET: ' ' }));
    const on = googleSettings(loadConfig(full));

    // Assess
    expect(off).toBeUndefined();
    expect(partial).toBeUndefined();
    expect(on?.issuer.href).toBe('https://accounts.google.com/');
  });

  it('answers the authorization URL with PKCE, state and nonce, and binds the login to the browser', async () => {
    // Act
    const { url, cookie } = await startGoogleLogin('/topics/ai?sort=new');

    // Assess
    const provider = getLocalOidcProvider();
    expect(url.origin).toBe(new URL(provider.issuer).origin);
    expect(url.pathname).toBe('/authorize');
    const params = url.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(provider.clientId);
    expect(params.get('redirect_uri')).toBe(`${runtime.url}${routes.googleCallback.path}`);
    expect(params.get('scope')).toBe('openid email profile');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('nonce')).toMatch(/^[\w-]{20,}$/);
    const state = params.get('state') ?? '';
    // Stored under the state's hash, with the binding's hash only, for 10 minutes.
    const stored = await readToken(getDb(), oauthStatePurpose('google'), state);
    expect(stored?.payload).toMatchObject({ returnTo: '/topics/ai?sort=new', nonce: params.get('nonce') });
    expect(stored?.payload.bindingHash).toBe(sha256(cookie.split('=')[1] ?? ''));
    expect(stored?.payload.codeVerifier).not.toBe(params.get('code_challenge'));
    expect((stored?.expiresAt ?? 0) - Date.now() / 1000).toBeGreaterThan(590);
  });

  it.each(['//evil.example', '/\\evil.example', '/\t/evil.example', 'https://evil.example/', 'relative/path'])(
    'refuses returnTo %s with 400 (no open redirect)',
    async (returnTo) => {
      // Act
      const answer = await api.call(routes.googleLoginUrl, { query: { returnTo } });

      // Assess
      expectError(answer, 400);
      expect(answer.body.fields).toEqual([
        { in: 'query', field: 'returnTo', message: 'returnTo must be a path on this site, starting with a single /' },
      ]);
      expect(answer.cookies).toEqual([]);
    },
  );
});

describe('Google login end to end against the mock provider', () => {
  let firstUserId: string;
  let firstSession: string | undefined;

  it('logs the default local user in: session cookie, binding cookie cleared, back to returnTo', async () => {
    // Act
    const answer = await loginWithGoogle(undefined, '/me?tab=settings');

    // Assess
    expect(answer.status).toBe(302);
    // The first login made the account: the page greets it as new.
    expect(answer.location).toBe('/me?tab=settings#welcome');
    expect(answer.cookies).toContain(CLEARED_BINDING);
    expect(answer.sessionToken).toBeDefined();
    firstSession = answer.sessionToken;
    firstUserId = await userIdOf(api, answer.sessionToken);
    const { data: user } = await getDb().entities.user.get({ userId: firstUserId }).go();
    expect(user).toMatchObject({ email: 'google.user@example.com', emailVerified: true, name: 'Google User' });
    const { data: link } = await getDb()
      .entities.externalIdentity.get({ issuer: getLocalOidcProvider().issuer, subject: 'local-google-user' })
      .go();
    expect(link?.userId).toBe(firstUserId);
  });

  it('logs the same provider account into the same user next time, with a new session', async () => {
    // Act
    const answer = await loginWithGoogle({ sub: 'local-google-user', email: 'google.user@example.com', email_verified: true });

    // Assess
    expect(answer.status).toBe(302);
    expect(answer.location).toBe('/after-login#logged-in');
    expect(answer.sessionToken).not.toBe(firstSession);
    expect(await userIdOf(api, answer.sessionToken)).toBe(firstUserId);
  });

  it('links to the email-login account whose verified email the provider verified', async () => {
    // Prepare
    const email = uniqueEmail('linked');
    const { user: existing } = await findOrCreateUserByEmail(getDb(), email);

    // Act
    const answer = await loginWithGoogle({ sub: uniqueName('linker'), email: email.toUpperCase(), email_verified: true });

    // Assess
    expect(await userIdOf(api, answer.sessionToken)).toBe(existing.userId);
  });

  it('does not link on an email the provider has not verified: a new account without that email', async () => {
    // Prepare
    const email = uniqueEmail('unverified');
    const { user: existing } = await findOrCreateUserByEmail(getDb(), email);
    const sub = uniqueName('unverified');

    // Act
    const answer = await loginWithGoogle({ sub, email, email_verified: false, name: 'Some One' });
    const again = await loginWithGoogle({ sub, email, email_verified: false });

    // Assess
    const userId = await userIdOf(api, answer.sessionToken);
    expect(userId).not.toBe(existing.userId);
    const { data: created } = await getDb().entities.user.get({ userId }).go();
    expect(created?.email).toBeUndefined();
    expect(created).toMatchObject({ emailVerified: false, name: 'Some One', username: 'someone' });
    expect(await userIdOf(api, again.sessionToken)).toBe(userId);
  });

  it('keeps subjects that differ only in letter case apart', async () => {
    // Prepare
    const sub = uniqueName('CaseSub');

    // Act
    const upper = await loginWithGoogle({ sub });
    const lower = await loginWithGoogle({ sub: sub.toLowerCase() });

    // Assess
    expect(await userIdOf(api, upper.sessionToken)).not.toBe(await userIdOf(api, lower.sessionToken));
  });

  it("treats Google's two spellings of its issuer as one account: one link, listed once", async () => {
    // Prepare: a link made under the short spelling, and a leftover duplicate under the long one.
    const db = getDb();
    const email = uniqueEmail('spelling');
    const { user } = await findOrCreateUserByEmail(db, email);
    const subject = uniqueName('spelling');
    const linkedAt = '2026-01-01T00:00:00.000Z';
    await db.entities.externalIdentity
      .create({ issuer: 'accounts.google.com', subject, userId: user.userId, email, createdAt: linkedAt, lastLoginAt: linkedAt })
      .go();

    // Act: a login whose token carries the other spelling
    const signedIn = await signInWithProvider(db, {
      issuer: 'https://accounts.google.com',
      subject,
      email,
      emailVerified: true,
      name: undefined,
    });
    await db.entities.externalIdentity
      .create({
        issuer: 'https://accounts.google.com',
        subject,
        userId: user.userId,
        email,
        createdAt: '2026-02-01T00:00:00.000Z',
        lastLoginAt: linkedAt,
      })
      .go();
    const session = await api.signIn('spelling', { email });
    const overview = await api.call(routes.getAccount, { as: session });

    // Assess
    expect(signedIn).toMatchObject({ outcome: 'returning', user: { userId: user.userId } });
    expectOk(overview);
    expect(overview.body.connectedAccounts).toEqual([{ provider: 'google', displayName: email, connectedAt: linkedAt }]);
  });

  it('creates an account with the verified email of a new person', async () => {
    // Prepare
    const email = uniqueEmail('newcomer');

    // Act
    const answer = await loginWithGoogle({ sub: uniqueName('newcomer'), email, email_verified: true });

    // Assess
    const userId = await userIdOf(api, answer.sessionToken);
    const { data: claim } = await getDb().entities.identityClaim.get({ kind: 'email', value: email }).go();
    expect(claim?.userId).toBe(userId);
  });
});

describe('Google logins that are refused', () => {
  it('forgets the Google link when the account is deleted, so that Google account starts afresh', async () => {
    // Prepare
    const login = { sub: 'leaving-user', email: 'leaving@example.com', email_verified: true };
    const first = await loginWithGoogle(login);
    const firstUserId = await userIdOf(api, first.sessionToken);

    // Act
    const deleted = await api.call(routes.deleteAccount, { as: { token: first.sessionToken ?? '' } });
    const linksLeft = await getDb().entities.externalIdentity.query.byUser({ userId: firstUserId }).go();
    const again = await loginWithGoogle(login);

    // Assess
    expectOk(deleted);
    expect(linksLeft.data).toEqual([]);
    expect(again.status).toBe(302);
    expect(await userIdOf(api, again.sessionToken)).not.toBe(firstUserId);
  });

  it('refuses a wrong state', async () => {
    // Prepare
    const started = await startGoogleLogin();
    const callbackUrl = new URL(await authorizeAtProvider(started.url));
    callbackUrl.searchParams.set('state', 'x'.repeat(43));

    // Act
    const answer = await googleCallback(callbackUrl.href, started.cookie);

    // Assess
    expectRefused(answer, 'invalid_state');
  });

  it('refuses an ID token with a wrong nonce', async () => {
    // Prepare
    getLocalOidcProvider().setNextLogin({
      sub: uniqueName('nonce'),
      email: uniqueEmail('nonce'),
      email_verified: true,
      nonce: 'not-the-nonce-we-sent',
    });
    const started = await startGoogleLogin();

    // Act
    const answer = await googleCallback(await authorizeAtProvider(started.url), started.cookie);

    // Assess
    expectRefused(answer, 'invalid_id_token');
  });

  it('refuses a state used a second time', async () => {
    // Prepare
    const first = await loginWithGoogle({ sub: uniqueName('replay') });
    expect(first.sessionToken).toBeDefined();

    // Act
    const replay = await googleCallback(first.callbackUrl, first.cookie);

    // Assess
    expectRefused(replay, 'state_used');
  });

  it("refuses a callback without the binding cookie, or with another login's, and keeps the state for its browser", async () => {
    // Prepare
    const started = await startGoogleLogin();
    const other = await startGoogleLogin();
    const callbackUrl = await authorizeAtProvider(started.url);

    // Act
    const withoutCookie = await googleCallback(callbackUrl);
    const withOtherCookie = await googleCallback(callbackUrl, other.cookie);
    const ownBrowser = await googleCallback(callbackUrl, started.cookie);

    // Assess
    expectRefused(withoutCookie, 'browser_mismatch');
    expectRefused(withOtherCookie, 'browser_mismatch');
    expect(ownBrowser.status).toBe(302);
    expect(ownBrowser.location).toMatch(/^\/after-login#(welcome|logged-in)$/);
    expect(ownBrowser.sessionToken).toBeDefined();
  });

  it('refuses a state older than 10 minutes', async () => {
    // Prepare
    const login = await startLogin(getDb(), { provider: 'google', returnTo: '/', now: new Date(Date.now() - 11 * 60_000) });

    // Act
    const answer = await googleCallback(
      `${runtime.url}${routes.googleCallback.path}?code=some-code&state=${login.state}`,
      `toppubs_oauth=${login.binding}`,
    );

    // Assess
    expectRefused(answer, 'state_expired');
  });

  it('says the login was cancelled when the provider answers access_denied', async () => {
    // Prepare
    const started = await startGoogleLogin();

    // Act
    const answer = await googleCallback(
      `${runtime.url}${routes.googleCallback.path}?error=access_denied&state=${started.url.searchParams.get('state')}`,
      started.cookie,
    );

    // Assess
    expectRefused(answer, 'cancelled');
  });

  it('refuses a callback with no code', async () => {
    // Act
    const answer = await googleCallback(`${runtime.url}${routes.googleCallback.path}`);

    // Assess
    expectRefused(answer, 'invalid_request');
  });
});
