import { createHmac, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_APPLICATION_ID } from '../../shared/constants';
import { issueLoginLink } from '../../functions/account/lib/login-links';
import { hashToken, registerAppClient } from '../../functions/lib/app-auth';
import { LOCAL_PUSHER_APP_KEY, LOCAL_PUSHER_SECRET } from '../../functions/lib/config';
import { getDb } from '../../functions/lib/db/service';
import { parseEml } from '../../functions/lib/mail/eml';
import { issueActionToken } from '../../functions/account/lib/action-tokens';
import { issueSsoCode, SSO_CODE } from '../../functions/account/lib/sso-codes';
import { readToken } from '../../functions/lib/one-time-tokens';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

const USER = '/api/i/user';
const APP_ID = `sibling-${randomUUID().slice(0, 8)}`;

let runtime: TestRuntime;
/** The sibling app's origin: the runtime has one origin, so the test app registers the web app's own. */
let siblingOrigin: string;
let appToken: string;

interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

async function answer(response: Promise<Response>): Promise<Answer> {
  const resolved = await response;
  const text = await resolved.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Redirects have no body.
  }
  return { status: resolved.status, headers: resolved.headers, json };
}

const cookie = (token: string) => ({ cookie: `ssoat=${token}` });
const get = (path: string, headers: Record<string, string> = {}) =>
  answer(
    fetch(`${runtime.url}${USER}${path}`, {
      headers: { 'x-application-id': WEB_APPLICATION_ID, ...headers },
      redirect: 'manual',
    }),
  );
const put = (path: string, headers: Record<string, string> = {}) =>
  answer(
    fetch(`${runtime.url}${USER}${path}`, { method: 'PUT', headers: { 'x-application-id': WEB_APPLICATION_ID, ...headers } }),
  );
const me = (headers: Record<string, string>) => get('/me/v', headers);

/** Logs a new account in for real: a login link, spent on the confirm endpoint; the cookie's token. */
async function login(
  email = `sso-${randomUUID().slice(0, 8)}@example.com`,
): Promise<{ token: string; userId: string; email: string }> {
  const { token: linkToken } = await issueLoginLink(getDb(), { email });
  const confirmed = await answer(runtime.post(`${USER}/auth/login/email/confirm`, { token: linkToken }));
  const setCookie = confirmed.headers.getSetCookie().find((value) => value.startsWith('ssoat='));
  const token = /^ssoat=([^;]+)/.exec(setCookie ?? '')?.[1];
  if (confirmed.status !== 200 || !token) throw new Error(`Login failed: ${confirmed.status}`);
  return { token, userId: (confirmed.json.user as { userId: string }).userId, email };
}

const startSso = (returnUrl: string, headers: Record<string, string> = {}) =>
  get(`/auth/login/sso/start?returnUrl=${encodeURIComponent(returnUrl)}`, headers);

const exchange = (
  code: string,
  origin: string,
  headers: Record<string, string> = { 'x-application-id': APP_ID, 'x-app-token': appToken },
) => answer(runtime.post(`${USER}/auth/login/sso/exchange`, { code, origin }, headers));

/** The ssoCode from a start redirect's Location. */
function codeOf(started: Answer): string {
  const code = new URL(started.headers.get('location') ?? '').searchParams.get('ssoCode');
  if (!code) throw new Error(`No ssoCode in ${started.headers.get('location')}`);
  return code;
}

/** The captured emails to one address, oldest first. */
function mailTo(address: string) {
  return readdirSync(runtime.mailDir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => parseEml(readFileSync(join(runtime.mailDir, name), 'utf8')))
    .filter((mail) => mail.headers.to === address);
}

beforeAll(async () => {
  runtime = await startTestRuntime({ seedPublications: 50 });
  siblingOrigin = runtime.url;
  appToken = await registerAppClient(APP_ID, 'Sibling test app', [siblingOrigin]);
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
    expect(started.status).toBe(400);
    expect(started.headers.get('location')).toBeNull();
  });

  it('names the reason when the app is not on the allow-list', async () => {
    // Act
    const started = await startSso('https://evil.example/callback');

    // Assess
    expect(started.json).toEqual({ code: 'SSO_APP_NOT_ALLOWED', message: 'That app is not allowed to sign in here.' });
  });

  it('sends a signed-out visitor back with ssoError=login_required', async () => {
    // Act
    const started = await startSso(`${siblingOrigin}/sso/callback?next=%2Fstats`);

    // Assess
    expect(started.status).toBe(302);
    const location = new URL(started.headers.get('location') ?? '');
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
    const started = await startSso(`${siblingOrigin}/sso/callback?ssoCode=planted`, cookie(user.token));

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
    const code = codeOf(await startSso(`${siblingOrigin}/cb`, cookie(user.token)));

    // Act
    const exchanged = await exchange(code, siblingOrigin);

    // Assess
    expect(exchanged.status).toBe(200);
    expect(exchanged.json.user).toMatchObject({ userId: user.userId });
    const sessionToken = exchanged.json.sessionToken as string;
    expect(sessionToken).not.toBe(user.token);
    const current = await me({ ssoat: sessionToken });
    expect(current.status).toBe(200);
    expect(current.json).toMatchObject({ userId: user.userId });
  });

  it('refuses the same code a second time', async () => {
    // Prepare
    const user = await login();
    const code = codeOf(await startSso(`${siblingOrigin}/cb`, cookie(user.token)));
    expect((await exchange(code, siblingOrigin)).status).toBe(200);

    // Act
    const again = await exchange(code, siblingOrigin);

    // Assess
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ code: 'SSO_CODE_USED' });
    expect(again.json.sessionToken).toBeUndefined();
  });

  it('refuses a code named with another origin than it was sent to, and leaves it for the right one', async () => {
    // Prepare
    const user = await login();
    const code = codeOf(await startSso(`${siblingOrigin}/cb`, cookie(user.token)));

    // Act
    const wrong = await exchange(code, 'https://other-sibling.example');

    // Assess
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ code: 'SSO_CODE_WRONG_ORIGIN' });
    expect((await exchange(code, siblingOrigin)).status).toBe(200);
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
    expect(late.status).toBe(400);
    expect(late.json).toMatchObject({ code: 'SSO_CODE_EXPIRED' });
  });

  it('refuses an unknown code', async () => {
    // Act
    const unknown = await exchange('x'.repeat(43), siblingOrigin);

    // Assess
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ code: 'INVALID_SSO_CODE' });
  });

  it('is for app servers only: a browser session or no credentials cannot exchange', async () => {
    // Prepare
    const user = await login();
    const code = codeOf(await startSso(`${siblingOrigin}/cb`, cookie(user.token)));

    // Act
    const anonymous = await exchange(code, siblingOrigin, {});
    const asUser = await exchange(code, siblingOrigin, cookie(user.token));
    const badToken = await exchange(code, siblingOrigin, { 'x-application-id': APP_ID, 'x-app-token': 'wrong-token' });

    // Assess
    expect(anonymous.status).toBe(401);
    expect(asUser.status).toBe(403);
    expect(badToken.status).toBe(401);
    expect((await exchange(code, siblingOrigin)).status).toBe(200);
  });
});

describe('single sign-on: authed check', () => {
  it('says who is signed in', async () => {
    // Prepare
    const user = await login();

    // Act
    const checked = await get('/auth/login/sso/authed/check', cookie(user.token));

    // Assess
    expect(checked.status).toBe(200);
    expect(checked.json).toMatchObject({ isAuthed: true, user: { userId: user.userId } });
  });

  it('says nobody is, for no session and for a dead one', async () => {
    // Act
    const none = await get('/auth/login/sso/authed/check');
    const dead = await get('/auth/login/sso/authed/check', cookie('z'.repeat(43)));

    // Assess
    expect(none.status).toBe(200);
    expect(none.json).toEqual({ isAuthed: false, user: null });
    expect(dead.json).toEqual({ isAuthed: false, user: null });
  });
});

describe('single sign-on: logout everywhere', () => {
  it("ends every session of the user and clears the cookie, and nobody else's", async () => {
    // Prepare: two logins of one account, a sibling's exchanged session, a pending code, and another user.
    const first = await login();
    const { token: linkToken } = await issueLoginLink(getDb(), { email: first.email });
    const secondLogin = await answer(runtime.post(`${USER}/auth/login/email/confirm`, { token: linkToken }));
    const second = /^ssoat=([^;]+)/.exec(secondLogin.headers.getSetCookie()[0] ?? '')?.[1] ?? '';
    const sibling = await exchange(codeOf(await startSso(`${siblingOrigin}/cb`, cookie(first.token))), siblingOrigin);
    const pendingCode = codeOf(await startSso(`${siblingOrigin}/cb`, cookie(second)));
    const other = await login();
    expect((await me(cookie(second))).status).toBe(200);

    // Act
    const loggedOut = await get('/auth/logout/sso', cookie(first.token));

    // Assess
    expect(loggedOut.status).toBe(200);
    expect(loggedOut.json).toMatchObject({ loggedOut: true });
    expect(loggedOut.json.sessionsEnded).toBeGreaterThanOrEqual(3);
    expect(loggedOut.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^ssoat=; Path=\/; HttpOnly; Secure; SameSite=Lax; Max-Age=0/),
    ]);
    expect((await me(cookie(first.token))).status).toBe(401);
    expect((await me(cookie(second))).status).toBe(401);
    expect((await me({ ssoat: sibling.json.sessionToken as string })).status).toBe(401);
    expect((await exchange(pendingCode, siblingOrigin)).json).toMatchObject({ code: 'INVALID_SSO_CODE' });
    expect((await me(cookie(other.token))).status).toBe(200);
  });

  it('answers a signed-out caller too, clearing the cookie', async () => {
    // Act
    const loggedOut = await get('/auth/logout/sso');

    // Assess
    expect(loggedOut.status).toBe(200);
    expect(loggedOut.json).toEqual({ loggedOut: true, sessionsEnded: 0 });
    expect(loggedOut.headers.getSetCookie()).toHaveLength(1);
  });
});

describe('realtime channel auth', () => {
  const pusher = (socketId: string, channel: string, headers: Record<string, string> = {}) =>
    get(
      `/auth/login/pusher/client?socket_id=${encodeURIComponent(socketId)}&channel_name=${encodeURIComponent(channel)}`,
      headers,
    );

  it("signs the caller's own private channel with the Pusher HMAC", async () => {
    // Prepare
    const user = await login();
    const channel = `private-user-${user.userId}`;

    // Act
    const signed = await pusher('1234.5678', channel, cookie(user.token));

    // Assess
    expect(signed.status).toBe(200);
    const expected = createHmac('sha256', LOCAL_PUSHER_SECRET).update(`1234.5678:${channel}`).digest('hex');
    expect(signed.json).toEqual({ auth: `${LOCAL_PUSHER_APP_KEY}:${expected}` });
  });

  it("refuses another user's channel, and any other channel", async () => {
    // Prepare
    const user = await login();
    const other = await login();

    // Act
    const othersChannel = await pusher('1234.5678', `private-user-${other.userId}`, cookie(user.token));
    const prefixed = await pusher('1234.5678', `private-user-${user.userId}-x`, cookie(user.token));

    // Assess
    expect(othersChannel.status).toBe(403);
    expect(prefixed.status).toBe(403);
    expect(othersChannel.json.auth).toBeUndefined();
  });

  it('needs a signed-in user', async () => {
    // Act
    const anonymous = await pusher('1234.5678', 'private-user-someone');

    // Assess
    expect(anonymous.status).toBe(401);
  });

  it('refuses a malformed socket id', async () => {
    // Prepare
    const user = await login();

    // Act
    const malformed = await pusher('1234.5678:private-x', `private-user-${user.userId}`, cookie(user.token));

    // Assess
    expect(malformed.status).toBe(400);
    expect(malformed.json.fields).toEqual([expect.objectContaining({ in: 'query', field: 'socket_id' })]);
  });
});

describe('email verification', () => {
  const unverify = (userId: string) => getDb().entities.user.patch({ userId }).set({ emailVerified: false }).go();
  const isVerified = async (userId: string) => (await getDb().entities.user.get({ userId }).go()).data?.emailVerified;
  const action = (token: string, type: string) => get(`/authed/${token}/action/${type}`);

  it('emails a link that verifies the address once; a repeat is refused', async () => {
    // Prepare
    const user = await login();
    await unverify(user.userId);

    // Act
    const sent = await put('/auth/verify/email', cookie(user.token));
    const mails = mailTo(user.email);
    const link = /(http\S+\/authed\/([\w-]+)\/action\/verify-email)/.exec(mails[0]?.text ?? '');
    const verified = await action(link?.[2] ?? '', 'verify-email');
    const again = await action(link?.[2] ?? '', 'verify-email');

    // Assess
    expect(sent.status).toBe(200);
    expect(sent.json).toEqual({ sent: true });
    expect(mails).toHaveLength(1);
    expect(mails[0]?.headers.subject).toBe('Verify your TopPubs email address');
    expect(link?.[1]?.startsWith(`${runtime.url}/authed/`)).toBe(true);
    expect(verified.status).toBe(200);
    expect(verified.json).toEqual({ type: 'verify-email', done: true });
    expect(await isVerified(user.userId)).toBe(true);
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ code: 'ACTION_LINK_USED' });
  });

  it('allows one verification email per address per minute', async () => {
    // Prepare
    const user = await login();
    await unverify(user.userId);
    expect((await put('/auth/verify/email', cookie(user.token))).status).toBe(200);

    // Act
    const again = await put('/auth/verify/email', cookie(user.token));

    // Assess
    expect(again.status).toBe(429);
    expect(again.json).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(mailTo(user.email)).toHaveLength(1);
  });

  it('answers 409 for an address already verified, 400 for an account without one, 401 signed out', async () => {
    // Prepare
    const verified = await login();
    const withoutEmail = await login();
    await getDb().entities.user.patch({ userId: withoutEmail.userId }).remove(['email']).go();

    // Act
    const alreadyVerified = await put('/auth/verify/email', cookie(verified.token));
    const noEmail = await put('/auth/verify/email', cookie(withoutEmail.token));
    const anonymous = await put('/auth/verify/email');

    // Assess
    expect(alreadyVerified.status).toBe(409);
    expect(noEmail.status).toBe(400);
    expect(noEmail.json).toMatchObject({ code: 'NO_EMAIL' });
    expect(anonymous.status).toBe(401);
    expect(mailTo(verified.email)).toHaveLength(0);
  });

  it('refuses a token used for another action type, without spending it', async () => {
    // Prepare
    const user = await login();
    await unverify(user.userId);
    const { token } = await issueActionToken(getDb(), { purpose: 'verify-email', userId: user.userId, email: user.email });

    // Act
    const wrongType = await action(token, 'reset-password');

    // Assess
    expect(wrongType.status).toBe(400);
    expect(wrongType.json).toMatchObject({ code: 'ACTION_TYPE_MISMATCH' });
    expect(await isVerified(user.userId)).toBe(false);
    expect((await action(token, 'verify-email')).status).toBe(200);
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
    expect(unknown.json).toMatchObject({ code: 'INVALID_ACTION_LINK' });
    expect(late.json).toMatchObject({ code: 'ACTION_LINK_EXPIRED' });
    expect(oldAddress.json).toMatchObject({ code: 'ACTION_LINK_STALE' });
    expect([unknown.status, late.status, oldAddress.status]).toEqual([400, 400, 400]);
    expect(await isVerified(user.userId)).toBe(false);
  });
});
