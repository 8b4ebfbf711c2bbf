import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrCreateUserByEmail } from '../../functions/lib/accounts';
import { getDb } from '../../functions/lib/db/service';
import { createSession } from '../../functions/lib/sessions';
import { getLocalOidcProvider, type MockGoogleLogin } from '../../infra/local/oidc-provider';
import { routes } from '../../shared/routes';
import { type ApiClient, createApiClient, expectError, expectOk, type Session, userIdOf } from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { authorizeAtProvider, callback, startOauthLogin } from '../support/oauth';
import { uniqueName } from '../support/unique';

const BINDING =
  /^toppubs_oauth=([\w-]+); Path=\/api\/i\/user\/auth\/login\/twitter; HttpOnly; Secure; SameSite=Lax; Max-Age=600$/;
const CLEARED_BINDING = 'toppubs_oauth=; Path=/api/i/user/auth/login/twitter; HttpOnly; Secure; SameSite=Lax; Max-Age=0';

let runtime: TestRuntime;
let api: ApiClient;

const sessionOf = (token: string | undefined): Session => ({ token: token ?? '' });

/** Asks for the authorization URL (with the caller's session, if any) and keeps the binding cookie. */
function startTwitterLogin(session?: Session) {
  return startOauthLogin(api, routes.twitterLoginUrl, {
    binding: BINDING,
    returnTo: '/after-login',
    ...(session ? { as: session } : {}),
  });
}

async function loginWithTwitter(login: MockGoogleLogin, session?: Session) {
  getLocalOidcProvider().setNextLogin(login);
  const started = await startTwitterLogin(session);
  const callbackUrl = await authorizeAtProvider(started.url);
  return callback(api, routes.twitterCallback, callbackUrl, { cookie: started.cookie, ...(session ? { as: session } : {}) });
}

const disconnect = (sessionToken: string | undefined) => api.call(routes.disconnectTwitter, { as: sessionOf(sessionToken) });

const twitterLinksOf = async (userId: string) =>
  (await getDb().entities.externalIdentity.query.byUser({ userId }).go()).data.filter((link) => link.issuer === 'twitter');

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = createApiClient(runtime);
});

afterAll(async () => {
  await runtime?.close();
});

describe('Twitter login against the mock provider', () => {
  it('answers an authorization URL with state and PKCE S256, without an ID token nonce', async () => {
    // Act
    const { url } = await startTwitterLogin();

    // Assess
    expect(url.pathname).toBe('/authorize');
    expect(url.searchParams.get('redirect_uri')).toBe(`${runtime.url}${routes.twitterCallback.path}`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('nonce')).toBeNull();
  });

  it('creates an account without email on the first login, and signs the same user in next time', async () => {
    // Prepare
    const sub = uniqueName('tw');

    // Act
    const first = await loginWithTwitter({ sub, name: 'Tweety Bird' });
    const second = await loginWithTwitter({ sub, name: 'Tweety Bird' });

    // Assess
    expect(first.status).toBe(302);
    // Each lands marked, so the page greets the person and counts the login as Twitter's
    expect(first.location).toBe('/after-login#welcome-twitter');
    expect(second.location).toBe('/after-login#logged-in-twitter');
    expect(first.cookies).toContain(CLEARED_BINDING);
    const userId = await userIdOf(api, first.sessionToken);
    const { data: user } = await getDb().entities.user.get({ userId }).go();
    expect(user?.email).toBeUndefined();
    expect(user?.name).toBe('Tweety Bird');
    const { data: link } = await getDb().entities.externalIdentity.get({ issuer: 'twitter', subject: sub }).go();
    expect(link?.userId).toBe(userId);
    expect(second.sessionToken).toBeDefined();
    expect(second.sessionToken).not.toBe(first.sessionToken);
    expect(await userIdOf(api, second.sessionToken)).toBe(userId);
  });

  it('refuses to disconnect Twitter when it is the only way to log in', async () => {
    // Prepare
    const sub = uniqueName('only');
    const login = await loginWithTwitter({ sub });

    // Act
    const response = await disconnect(login.sessionToken);

    // Assess
    expectError(response, 409);
    expect(response.body).toMatchObject({
      code: 'ONLY_LOGIN_METHOD',
      message: 'Add an email address or another login before disconnecting Twitter.',
    });
    expect(await twitterLinksOf(await userIdOf(api, login.sessionToken))).toHaveLength(1);
  });

  it('connects Twitter to the signed-in user, and disconnects it when the user has a verified email', async () => {
    // Prepare
    const { user } = await findOrCreateUserByEmail(getDb(), `${uniqueName('mail')}@example.com`);
    await getDb().entities.user.patch({ userId: user.userId }).set({ emailVerified: true }).go();
    const session = await createSession(getDb(), user.userId, {});
    const sub = uniqueName('connect');

    // Act
    const connected = await loginWithTwitter({ sub, name: 'Tweety Connect' }, session);
    const linksAfterConnect = await twitterLinksOf(user.userId);
    const overview = await api.call(routes.getAccount, { as: { token: session.token } });
    const response = await disconnect(session.token);

    // Assess: back where the connect started, marked for the page's confirmation, and named by its handle
    expect(connected.status).toBe(302);
    expect(connected.location).toBe('/after-login#twitter-connected');
    expect(linksAfterConnect.map((link) => link.subject)).toEqual([sub]);
    expectOk(overview);
    expect(overview.body.connectedAccounts).toEqual([
      { provider: 'twitter', displayName: '@tweetyconnect', connectedAt: expect.any(String) as string },
    ]);
    expectOk(response);
    expect(response.body).toEqual({ disconnected: true });
    expect(await twitterLinksOf(user.userId)).toEqual([]);
  });

  it("refuses to connect a Twitter account that belongs to another user with 'already_linked'", async () => {
    // Prepare
    const sub = uniqueName('taken');
    await loginWithTwitter({ sub });
    const { user } = await findOrCreateUserByEmail(getDb(), `${uniqueName('other')}@example.com`);
    const session = await createSession(getDb(), user.userId, {});

    // Act
    const answer = await loginWithTwitter({ sub }, session);

    // Assess
    expect(answer.status).toBe(302);
    expect(answer.location).toBe('/login/failed?reason=already_linked');
    expect(await twitterLinksOf(user.userId)).toEqual([]);
  });

  it('refuses a wrong state', async () => {
    // Prepare
    const started = await startTwitterLogin();
    const callbackUrl = new URL(await authorizeAtProvider(started.url));
    callbackUrl.searchParams.set('state', 'x'.repeat(43));

    // Act
    const answer = await callback(api, routes.twitterCallback, callbackUrl.href, { cookie: started.cookie });

    // Assess
    expect(answer.status).toBe(302);
    expect(answer.location).toBe('/login/failed?reason=invalid_state');
    expect(answer.sessionToken).toBeUndefined();
    expect(answer.cookies).toEqual([CLEARED_BINDING]);
  });

  it('refuses a Twitter login state at the Google callback', async () => {
    // Prepare
    const started = await startTwitterLogin();
    const twitterCallback = new URL(await authorizeAtProvider(started.url));
    const googleCallback = new URL(routes.googleCallback.path, runtime.url);
    googleCallback.search = twitterCallback.search;

    // Act
    const answer = await callback(api, routes.googleCallback, googleCallback.href, { cookie: started.cookie });

    // Assess
    expect(answer.status).toBe(302);
    expect(answer.location).toBe('/login/failed?reason=invalid_state');
    expect(answer.sessionToken).toBeUndefined();
  });
});
