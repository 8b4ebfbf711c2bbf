import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../functions/lib/app-auth';
import { getDb } from '../../functions/lib/db/service';
import { issueActionToken } from '../../functions/account/lib/action-tokens';
import { issueSsoCode, SSO_CODE } from '../../functions/account/lib/sso-codes';
import { readToken } from '../../functions/lib/one-time-tokens';
import { SESSION_HEADER } from '../../shared/constants';
import { routes } from '../../shared/routes';
import {
  type Answer,
  type ApiClient,
  clearedSessionCookies,
  type AppCredentials,
  type Caller,
  createApiClient,
  expectError,
  expectOk,
  type Session,
} from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';
import { mailTo } from '../support/mail';

let runtime: TestRuntime;
let api: ApiClient;
/** The sibling app's origin: the allow-list defaults to the web origin, the runtime's own. */
let siblingOrigin: string;
let sibling: AppCredentials;

const login = (email?: string) => api.signIn('sso', email === undefined ? {} : { email });
const me = (session: Session) => api.call(routes.getMe, { as: session });
/** A sibling app's server sends the session it got in the ssoat header, not as a cookie. */
const meByHeader = (token: string) => api.call(routes.getMe, { headers: { [SESSION_HEADER]: token } });

const startSso = (returnUrl: string, as?: Session) => api.call(routes.ssoStart, { query: { returnUrl }, ...(as ? { as } : {}) });

/** By default the registered sibling app's server exchanges; null is a caller without credentials. */
const exchange = (code: string, origin: string, as: Caller | null = sibling) =>
  api.call(routes.ssoExchange, { body: { code, origin }, ...(as ? { as } : {}) });

/** The ssoCode from a start redirect's Location. */
function codeOf(started: Answer<typeof routes.ssoStart>): string {
  const code = new URL(started.location ?? '').searchParams.get('ssoCode');
  if (!code) throw new Error(`No ssoCode in ${started.location}`);
  return code;
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = createApiClient(runtime);
  siblingOrigin = runtime.url;
  sibling = await api.registerApp('sibling', [siblingOrigin]);
});

afterAll(async () => {
  await runtime?.close();
});

describe('single sign-on: start', () => {
  it.each([
    ['another site', () => 'https://evil.example/callback'],
    ['a look-alike host', () => `${siblingOrigin}.evil.example/callback`],
    ['another port of the same host', () => `${siblingOrigin.replace(/:\d+$/, '')}:1/callback`],
    ['a non-http scheme', () => 'javascript:alert(1)//'],
  ])('refuses to send a code to %s', async (_label, returnUrl) => {
    // Act
    const started = await startSso(returnUrl());

    // Assess
    expectError(started, 400);
    expect(started.location).toBeNull();
  });

  it('names the reason when the app is not on the allow-list', async () => {
    // Act
    const started = await startSso('https://evil.example/callback');

    // Assess
    expect(started.body).toEqual({ code: 'SSO_APP_NOT_ALLOWED', message: 'That app is not allowed to sign in here.' });
  });

  it('sends a signed-out visitor back with ssoError=login_required', async () => {
    // Act
    const started = await startSso(`${siblingOrigin}/sso/callback?next=%2Fstats`);

    // Assess
    expect(started.status).toBe(302);
    const location = new URL(started.location ?? '');
    expect(location.origin).toBe(siblingOrigin);
    expect(location.pathname).toBe('/sso/callback');
    expect(location.searchParams.get('next')).toBe('/stats');
    expect(location.searchParams.get('ssoError')).toBe('login_required');
    expect(location.searchParams.get('ssoCode')).toBeNull();
  });

  it('sends a signed-in user back with a one-time code, storing only its hash', async () => {
    // Prepare
    const user = await login();

    // Act
    const started = await startSso(`${siblingOrigin}/sso/callback?ssoCode=planted`, user);

    // Assess
    expect(started.status).toBe(302);
    expect(started.headers.get('cache-control')).toBe('no-store');
    const code = codeOf(started);
    expect(code).not.toBe('planted');
    expect(Buffer.from(code, 'base64url')).toHaveLength(32);
    const stored = await readToken(getDb(), SSO_CODE, code);
    expect(stored?.payload).toMatchObject({ userId: user.userId, origin: siblingOrigin });
    expect(stored!.expiresAt - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(60);
  });
});

describe('single sign-on: exchange', () => {
  it("turns a code into the sibling app's own session, usable in the ssoat header", async () => {
    // Prepare
    const user = await login();
    const code = codeOf(await startSso(`${siblingOrigin}/cb`, user));

    // Act
    const exchanged = await exchange(code, siblingOrigin);

    // Assess
    expectOk(exchanged);
    expect(exchanged.body.user).toMatchObject({ userId: user.userId });
    const sessionToken = exchanged.body.sessionToken;
    expect(sessionToken).not.toBe(user.token);
    const current = await meByHeader(sessionToken);
    expectOk(current);
    expect(current.body).toMatchObject({ userId: user.userId });
  });

  it('refuses the same code a second time', async () => {
    // Prepare
    const user = await login();
    const code = codeOf(await startSso(`${siblingOrigin}/cb`, user));
    expectOk(await exchange(code, siblingOrigin));

    // Act
    const again = await exchange(code, siblingOrigin);

    // Assess
    expectError(again, 400);
    expect(again.body).toMatchObject({ code: 'SSO_CODE_USED' });
    expect(again.body.sessionToken).toBeUndefined();
  });

  it('refuses a code named with another origin than it was sent to, and leaves it for the right one', async () => {
    // Prepare
    const user = await login();
    const code = codeOf(await startSso(`${siblingOrigin}/cb`, user));

    // Act
    const wrong = await exchange(code, 'https://other-sibling.example');

    // Assess
    expectError(wrong, 400);
    expect(wrong.body).toMatchObject({ code: 'SSO_CODE_WRONG_ORIGIN' });
    expectOk(await exchange(code, siblingOrigin));
  });

  it('refuses a code older than 60 seconds', async () => {
    // Prepare
    const user = await login();
    const { code } = await issueSsoCode(getDb(), {
      userId: user.userId,
      origin: siblingOrigin,
      sessionTokenHash: hashToken(user.token),
      now: new Date(Date.now() - 61_000),
    });

    // Act
    const late = await exchange(code, siblingOrigin);

    // Assess
    expectError(late, 400);
    expect(late.body).toMatchObject({ code: 'SSO_CODE_EXPIRED' });
  });

  it('refuses an unknown code', async () => {
    // Act
    const unknown = await exchange('x'.repeat(43), siblingOrigin);

    // Assess
    expectError(unknown, 400);
    expect(unknown.body).toMatchObject({ code: 'INVALID_SSO_CODE' });
  });

  it('is for app servers only: a browser session or no credentials cannot exchange', async () => {
    // Prepare
    const user = await login();
    const code = codeOf(await startSso(`${siblingOrigin}/cb`, user));

    // Act
    const anonymous = await exchange(code, siblingOrigin, null);
    const asUser = await exchange(code, siblingOrigin, user);
    const badToken = await exchange(code, siblingOrigin, { appId: sibling.appId, appToken: 'wrong-token' });

    // Assess
    expectError(anonymous, 401);
    expectError(asUser, 403);
    expectError(badToken, 401);
    expectOk(await exchange(code, siblingOrigin));
  });
});

describe('single sign-on: authed check', () => {
  it('says who is signed in', async () => {
    // Prepare
    const user = await login();

    // Act
    const checked = await api.call(routes.ssoAuthedCheck, { as: user });

    // Assess
    expectOk(checked);
    expect(checked.body).toMatchObject({ isAuthed: true, user: { userId: user.userId } });
  });

  it('says nobody is, for no session and for a dead one', async () => {
    // Act
    const none = await api.call(routes.ssoAuthedCheck);
    const dead = await api.call(routes.ssoAuthedCheck, { as: { token: 'z'.repeat(43) } });

    // Assess
    expectOk(none);
    expect(none.body).toEqual({ isAuthed: false, user: null });
    expect(dead.body).toEqual({ isAuthed: false, user: null });
  });
});

describe('single sign-on: logout everywhere', () => {
  it("ends every session of the user and clears the cookie, and nobody else's", async () => {
    // Prepare: two logins of one account, a sibling's exchanged session, a pending code, and another user.
    const first = await login();
    const second = await login(first.email);
    const siblingSession = await exchange(codeOf(await startSso(`${siblingOrigin}/cb`, first)), siblingOrigin);
    expectOk(siblingSession);
    const pendingCode = codeOf(await startSso(`${siblingOrigin}/cb`, second));
    const other = await login();
    expectOk(await me(second));

    // Act
    const loggedOut = await api.call(routes.ssoLogout, { as: first });

    // Assess
    expectOk(loggedOut);
    expect(loggedOut.body).toMatchObject({ loggedOut: true });
    expect(loggedOut.body.sessionsEnded).toBeGreaterThanOrEqual(3);
    expect(loggedOut.cookies).toEqual(clearedSessionCookies());
    expectError(await me(first), 401);
    expectError(await me(second), 401);
    expectError(await meByHeader(siblingSession.body.sessionToken), 401);
    expect((await exchange(pendingCode, siblingOrigin)).body).toMatchObject({ code: 'INVALID_SSO_CODE' });
    expectOk(await me(other));
  });

  it('answers a signed-out caller too, clearing the cookie', async () => {
    // Act
    const loggedOut = await api.call(routes.ssoLogout);

    // Assess
    expectOk(loggedOut);
    expect(loggedOut.body).toEqual({ loggedOut: true, sessionsEnded: 0 });
    expect(loggedOut.cookies).toEqual(clearedSessionCookies());
  });
});

describe('email verification', () => {
  const unverify = (userId: string) => getDb().entities.user.patch({ userId }).set({ emailVerified: false }).go();
  const isVerified = async (userId: string) => (await getDb().entities.user.get({ userId }).go()).data?.emailVerified;
  const action = (authToken: string, type: string) => api.call(routes.completeAction, { params: { authToken, type } });
  const sendVerification = (as?: Session) => api.call(routes.sendVerificationEmail, as ? { as } : {});

  it('emails a link that verifies the address once; a repeat is refused', async () => {
    // Prepare
    const user = await login();
    await unverify(user.userId);

    // Act
    const sent = await sendVerification(user);
    const mails = mailTo(runtime.mailDir, user.email);
    const link = /(http\S+\/authed\/([\w-]+)\/action\/verify-email)/.exec(mails[0]?.text ?? '');
    const verified = await action(link?.[2] ?? '', 'verify-email');
    const again = await action(link?.[2] ?? '', 'verify-email');

    // Assess
    expectOk(sent);
    expect(sent.body).toEqual({ sent: true });
    expect(mails).toHaveLength(1);
    expect(mails[0]?.headers.subject).toBe('Verify your TopPubs email address');
    expect(link?.[1]?.startsWith(`${runtime.url}/authed/`)).toBe(true);
    expectOk(verified);
    expect(verified.body).toEqual({ type: 'verify-email', done: true });
    expect(await isVerified(user.userId)).toBe(true);
    expectError(again, 400);
    expect(again.body).toMatchObject({ code: 'ACTION_LINK_USED' });
  });

  it('allows one verification email per address per minute', async () => {
    // Prepare
    const user = await login();
    await unverify(user.userId);
    expectOk(await sendVerification(user));

    // Act
    const again = await sendVerification(user);

    // Assess
    expectError(again, 429);
    expect(again.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(mailTo(runtime.mailDir, user.email)).toHaveLength(1);
  });

  it('answers 409 for an address already verified, 400 for an account without one, 401 signed out', async () => {
    // Prepare
    const verified = await login();
    const withoutEmail = await login();
    await getDb().entities.user.patch({ userId: withoutEmail.userId }).remove(['email']).go();

    // Act
    const alreadyVerified = await sendVerification(verified);
    const noEmail = await sendVerification(withoutEmail);
    const anonymous = await sendVerification();

    // Assess
    expectError(alreadyVerified, 409);
    expectError(noEmail, 400);
    expect(noEmail.body).toMatchObject({ code: 'NO_EMAIL' });
    expectError(anonymous, 401);
    expect(mailTo(runtime.mailDir, verified.email)).toHaveLength(0);
  });

  it('refuses a token used for another action type, without spending it', async () => {
    // Prepare
    const user = await login();
    await unverify(user.userId);
    const { token } = await issueActionToken(getDb(), { purpose: 'verify-email', userId: user.userId, email: user.email });

    // Act
    const wrongType = await action(token, 'reset-password');

    // Assess
    expectError(wrongType, 400);
    expect(wrongType.body).toMatchObject({ code: 'ACTION_TYPE_MISMATCH' });
    expect(await isVerified(user.userId)).toBe(false);
    expectOk(await action(token, 'verify-email'));
  });

  it('refuses unknown, expired and stale links with distinct codes', async () => {
    // Prepare
    const user = await login();
    await unverify(user.userId);
    const db = getDb();
    const expired = await issueActionToken(db, {
      purpose: 'verify-email',
      userId: user.userId,
      email: user.email,
      now: new Date(Date.now() - 25 * 3600_000),
    });
    const stale = await issueActionToken(db, { purpose: 'verify-email', userId: user.userId, email: 'old@example.com' });

    // Act
    const unknown = await action('q'.repeat(43), 'verify-email');
    const late = await action(expired.token, 'verify-email');
    const oldAddress = await action(stale.token, 'verify-email');

    // Assess
    expect(unknown.body).toMatchObject({ code: 'INVALID_ACTION_LINK' });
    expect(late.body).toMatchObject({ code: 'ACTION_LINK_EXPIRED' });
    expect(oldAddress.body).toMatchObject({ code: 'ACTION_LINK_STALE' });
    expect([unknown.status, late.status, oldAddress.status]).toEqual([400, 400, 400]);
    expect(await isVerified(user.userId)).toBe(false);
  });
});
