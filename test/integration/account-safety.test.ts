import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueLoginLink } from '../../functions/account/lib/login-links';
import { hashToken } from '../../functions/lib/app-auth';
import { getDb } from '../../functions/lib/db/service';
import { createSession } from '../../functions/lib/sessions';
import { DEFAULT_EMAIL_PREFERENCES } from '../../shared/schemas/account';
import { WEB_APPLICATION_ID } from '../../shared/constants';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

const USER = '/api/i/user';
const SESSION_COOKIE = /^ssoat=([^;]+); Path=\/; HttpOnly; Secure; SameSite=Lax/;
const CLEARED_COOKIE = /^ssoat=; Path=\/; HttpOnly; Secure; SameSite=Lax; Max-Age=0/;

let runtime: TestRuntime;
/** Every answer's body and every session token handed out, to check no answer ever carries a token. */
const bodies: string[] = [];
const sessionTokens: string[] = [];

interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

interface LoggedIn {
  token: string;
  userId: string;
  username: string;
  email: string;
  isNewAccount: boolean;
}

async function answer(response: Promise<Response>): Promise<Answer> {
  const resolved = await response;
  const text = await resolved.text();
  bodies.push(text);
  return { status: resolved.status, headers: resolved.headers, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const asUser = (token: string | undefined): Record<string, string> => (token ? { cookie: `ssoat=${token}` } : {});

const get = (path: string, token?: string) => answer(runtime.get(`${USER}${path}`, asUser(token)));
const post = (path: string, body: unknown, token?: string) => answer(runtime.post(`${USER}${path}`, body, asUser(token)));
const del = (path: string, token?: string) =>
  answer(
    fetch(`${runtime.url}${USER}${path}`, {
      method: 'DELETE',
      headers: { 'x-application-id': WEB_APPLICATION_ID, ...asUser(token) },
    }),
  );

/** Logs an address in for real: a login link from the issuer in-process, spent over HTTP by the confirm endpoint. */
async function logIn(email: string = uniqueEmail('reader')): Promise<LoggedIn> {
  const { token: linkToken } = await issueLoginLink(getDb(), { email });
  const login = await answer(runtime.post(`${USER}/auth/login/email/confirm`, { token: linkToken }));
  if (login.status !== 200) throw new Error(`Login of ${email} failed: ${login.status} ${JSON.stringify(login.json)}`);
  const cookie = login.headers.getSetCookie().find((value) => value.startsWith('ssoat='));
  const token = SESSION_COOKIE.exec(cookie ?? '')?.[1];
  if (!token) throw new Error(`No session cookie in ${String(cookie)}`);
  sessionTokens.push(token);
  const user = login.json.user as { userId: string; username: string };
  return { token, userId: user.userId, username: user.username, email, isNewAccount: login.json.isNewAccount as boolean };
}

interface SessionRow {
  sessionId: string;
  createdAt: string;
  lastUsedAt: string;
  userAgent: string;
  isCurrent: boolean;
}

async function sessionsOf(token: string): Promise<SessionRow[]> {
  const listed = await get('/me/v/sessions', token);
  if (listed.status !== 200) throw new Error(`Listing sessions failed: ${listed.status}`);
  return (listed.json as { sessions: SessionRow[] }).sessions;
}

const currentSessionId = async (token: string) => (await sessionsOf(token)).find((session) => session.isCurrent)?.sessionId ?? '';

beforeAll(async () => {
  runtime = await startTestRuntime({ seedPublications: 100 });
});

afterAll(async () => {
  await runtime?.close();
});

describe('blocking users', () => {
  it('blocks a user (idempotently) and lists them in the account overview, then unblocks them', async () => {
    // Prepare
    const me = await logIn();
    const other = await logIn();

    // Act
    const blocked = await post(`/me/mod/interact-user/${other.userId}/block`, undefined, me.token);
    const blockedAgain = await post(`/me/mod/interact-user/${other.userId}/block`, undefined, me.token);
    const whileBlocked = await get('/me/v/account', me.token);
    const unblocked = await post(`/me/mod/interact-user/${other.userId}/unblock`, undefined, me.token);
    const unblockedAgain = await post(`/me/mod/interact-user/${other.userId}/unblock`, undefined, me.token);
    const afterUnblock = await get('/me/v/account', me.token);

    // Assess
    expect(blocked.status).toBe(200);
    expect(blocked.json).toEqual({ userId: other.userId, blocked: true });
    expect(blockedAgain.status).toBe(200);
    expect(blockedAgain.json).toEqual({ userId: other.userId, blocked: true });
    expect(whileBlocked.status).toBe(200);
    expect(whileBlocked.json).toMatchObject({
      user: { userId: me.userId, username: me.username, email: me.email, emailVerified: true },
      settings: {},
      emailPreferences: DEFAULT_EMAIL_PREFERENCES,
    });
    const blockedUsers = whileBlocked.json.blockedUsers as Record<string, unknown>[];
    expect(blockedUsers).toHaveLength(1);
    expect(blockedUsers[0]).toMatchObject({ userId: other.userId, username: other.username });
    // Public users only: the blocked user's email is never shown.
    expect(blockedUsers[0]).not.toHaveProperty('email');
    expect(unblocked.status).toBe(200);
    expect(unblocked.json).toEqual({ userId: other.userId, blocked: false });
    expect(unblockedAgain.status).toBe(200);
    expect(unblockedAgain.json).toEqual({ userId: other.userId, blocked: false });
    expect(afterUnblock.json.blockedUsers).toEqual([]);
  });

  it('refuses to block yourself', async () => {
    // Prepare
    const me = await logIn();

    // Act
    const blocked = await post(`/me/mod/interact-user/${me.userId}/block`, undefined, me.token);
    const inCapitals = await post(`/me/mod/interact-user/${me.userId.toUpperCase()}/block`, undefined, me.token);

    // Assess
    expect(blocked.status).toBe(400);
    expect(blocked.json).toMatchObject({ code: 'BAD_REQUEST', message: 'You cannot block yourself' });
    expect(inCapitals.status).toBe(400);
    expect(inCapitals.json).toMatchObject({ code: 'BAD_REQUEST', message: 'You cannot block yourself' });
    expect((await get('/me/v/account', me.token)).json.blockedUsers).toEqual([]);
    expect((await get('/me/v/account', me.token)).json.connectedAccounts).toEqual([]);
  });

  it('answers 404 for a user that does not exist', async () => {
    // Prepare
    const me = await logIn();
    const nobody = randomUUID();

    // Act
    const blocked = await post(`/me/mod/interact-user/${nobody}/block`, undefined, me.token);
    const unblocked = await post(`/me/mod/interact-user/${nobody}/unblock`, undefined, me.token);

    // Assess
    expect(blocked.status).toBe(404);
    expect(blocked.json).toMatchObject({ code: 'NOT_FOUND', message: 'No such user' });
    expect(unblocked.status).toBe(404);
    const { data: blocks } = await getDb().entities.block.query.byUser({ userId: me.userId }).go();
    expect(blocks).toEqual([]);
  });
});

describe('reporting objects', () => {
  it('keeps one report per reporter and object: a repeat updates it', async () => {
    // Prepare
    const me = await logIn();
    const objectId = `story-${randomUUID()}`;

    // Act
    const first = await post(
      '/me/mod/report/object',
      { objectType: 'story', objectId, reason: 'spam', details: 'Links to a casino' },
      me.token,
    );
    const { data: afterFirst } = await getDb().entities.report.query.byObject({ objectType: 'story', objectId }).go();
    const second = await post(
      '/me/mod/report/object',
      { objectType: 'story', objectId, reason: 'abuse', details: 'Insults readers' },
      me.token,
    );
    const { data: afterSecond } = await getDb().entities.report.query.byObject({ objectType: 'story', objectId }).go();

    // Assess
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ reported: true, isNew: true });
    expect(second.status).toBe(200);
    expect(second.json).toEqual({ reported: true, isNew: false });
    expect(afterFirst).toEqual([
      expect.objectContaining({ reporterId: me.userId, reason: 'spam', details: 'Links to a casino' }),
    ]);
    expect(afterSecond).toHaveLength(1);
    expect(afterSecond[0]).toMatchObject({ reporterId: me.userId, reason: 'abuse', details: 'Insults readers' });
    expect(afterSecond[0]?.createdAt).toBe(afterFirst[0]?.createdAt);
    expect(Date.parse(afterSecond[0]?.updatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(afterFirst[0]?.updatedAt ?? ''));
  });

  it('keeps reports of the same object by different people apart', async () => {
    // Prepare
    const [one, two] = [await logIn(), await logIn()];
    const objectId = `pub-${randomUUID()}`;

    // Act
    const byOne = await post('/me/mod/report/object', { objectType: 'publication', objectId, reason: 'copyright' }, one.token);
    const byTwo = await post('/me/mod/report/object', { objectType: 'publication', objectId, reason: 'other' }, two.token);

    // Assess
    expect(byOne.json).toEqual({ reported: true, isNew: true });
    expect(byTwo.json).toEqual({ reported: true, isNew: true });
    const { data: reports } = await getDb().entities.report.query.byObject({ objectType: 'publication', objectId }).go();
    expect(reports.map((report) => report.reporterId).sort()).toEqual([one.userId, two.userId].sort());
  });

  it('keeps object ids that differ only in case apart', async () => {
    // Prepare
    const me = await logIn();
    const objectId = `File-${randomUUID()}`;

    // Act
    const mixed = await post('/me/mod/report/object', { objectType: 'file', objectId, reason: 'copyright' }, me.token);
    const lower = await post(
      '/me/mod/report/object',
      { objectType: 'file', objectId: objectId.toLowerCase(), reason: 'copyright' },
      me.token,
    );

    // Assess
    expect(mixed.json).toEqual({ reported: true, isNew: true });
    expect(lower.json).toEqual({ reported: true, isNew: true });
    const { data: reports } = await getDb().entities.report.query.byObject({ objectType: 'file', objectId }).go();
    expect(reports.map((report) => report.objectId)).toEqual([objectId]);
  });

  it('names the field when the report is malformed', async () => {
    // Prepare
    const me = await logIn();

    // Act
    const unknownType = await post('/me/mod/report/object', { objectType: 'comment', objectId: 'c1', reason: 'spam' }, me.token);
    const unknownField = await post(
      '/me/mod/report/object',
      { objectType: 'story', objectId: 's1', reason: 'spam', severity: 'high' },
      me.token,
    );

    // Assess
    expect(unknownType.status).toBe(400);
    expect(unknownType.json).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(unknownType.json.fields).toEqual([expect.objectContaining({ in: 'body', field: 'objectType' })]);
    expect(unknownField.status).toBe(400);
    expect(unknownField.json.fields).toEqual([{ in: 'body', field: 'severity', message: 'Unknown field' }]);
    const { data: reports } = await getDb().entities.report.query.byObject({ objectType: 'story', objectId: 's1' }).go();
    expect(reports).toEqual([]);
  });
});

describe('sessions', () => {
  it('lists the sessions of two logins, newest first, the current one flagged', async () => {
    // Prepare
    const first = await logIn();
    const second = await logIn(first.email);

    // Act
    const sessions = await sessionsOf(first.token);

    // Assess
    expect(second.userId).toBe(first.userId);
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((session) => session.isCurrent)).toHaveLength(1);
    expect(sessions[1]?.isCurrent).toBe(true);
    expect(sessions[0]?.sessionId).toBe(await currentSessionId(second.token));
    expect(Date.parse(sessions[0]?.createdAt ?? '')).toBeGreaterThanOrEqual(Date.parse(sessions[1]?.createdAt ?? ''));
    for (const session of sessions)
      expect(Object.keys(session).sort()).toEqual(['createdAt', 'isCurrent', 'lastUsedAt', 'sessionId', 'userAgent']);
  });

  it('leaves expired sessions out of the list', async () => {
    // Prepare: a session created 61 days ago has expired (sessions live 60 days unless used).
    const me = await logIn();
    await createSession(getDb(), me.userId, { now: new Date(Date.now() - 61 * 24 * 3600 * 1000) });

    // Act
    const sessions = await sessionsOf(me.token);

    // Assess
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.isCurrent).toBe(true);
  });

  it('ends another session of the caller: its cookie stops working, the caller stays signed in', async () => {
    // Prepare
    const laptop = await logIn();
    const phone = await logIn(laptop.email);
    const phoneSessionId = await currentSessionId(phone.token);

    // Act
    const ended = await del(`/me/mod/session/${phoneSessionId}`, laptop.token);

    // Assess
    expect(ended.status).toBe(200);
    expect(ended.json).toEqual({ ended: true });
    expect(ended.headers.getSetCookie()).toEqual([]);
    expect((await get('/me/v', phone.token)).status).toBe(401);
    expect((await get('/me/v', laptop.token)).status).toBe(200);
    expect((await sessionsOf(laptop.token)).map((session) => session.sessionId)).not.toContain(phoneSessionId);
  });

  it('ends the current session and clears its cookie', async () => {
    // Prepare
    const me = await logIn();
    const sessionId = await currentSessionId(me.token);

    // Act
    const ended = await del(`/me/mod/session/${sessionId}`, me.token);

    // Assess
    expect(ended.status).toBe(200);
    expect(ended.headers.getSetCookie()).toEqual([expect.stringMatching(CLEARED_COOKIE)]);
    expect((await get('/me/v', me.token)).status).toBe(401);
  });

  it("answers 404 for someone else's session, as for an unknown one, and leaves it alone", async () => {
    // Prepare
    const me = await logIn();
    const stranger = await logIn();
    const strangersSessionId = await currentSessionId(stranger.token);

    // Act
    const theirs = await del(`/me/mod/session/${strangersSessionId}`, me.token);
    const unknown = await del(`/me/mod/session/${randomUUID()}`, me.token);

    // Assess
    expect(theirs.status).toBe(404);
    expect(theirs.json).toEqual({ code: 'NOT_FOUND', message: 'No such session' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual(theirs.json);
    expect((await get('/me/v', stranger.token)).status).toBe(200);
  });
});

describe('deleting the account', () => {
  it('deletes the account after a fresh login: sessions ended, username and email free again', async () => {
    // Prepare
    const me = await logIn();
    const otherDevice = await logIn(me.email);
    const blockedUser = await logIn();
    expect((await post(`/me/mod/interact-user/${blockedUser.userId}/block`, undefined, me.token)).status).toBe(200);
    const objectId = `story-${randomUUID()}`;
    expect((await post('/me/mod/report/object', { objectType: 'story', objectId, reason: 'spam' }, me.token)).status).toBe(200);
    expect((await get(`/userme/v/check/usernameIsFree?username=${me.username}`)).json).toMatchObject({ isFree: false });

    // Act
    const deleted = await del('/me/mod', me.token);

    // Assess
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ deleted: true });
    expect(deleted.headers.getSetCookie()).toEqual([expect.stringMatching(CLEARED_COOKIE)]);
    expect((await get('/me/v', me.token)).status).toBe(401);
    expect((await get('/me/v', otherDevice.token)).status).toBe(401);
    const db = getDb();
    const { data: sessions } = await db.entities.session.query.byUser({ userId: me.userId }).go();
    expect(sessions).toEqual([]);
    for (const token of [me.token, otherDevice.token]) {
      expect((await db.entities.session.get({ tokenHash: hashToken(token) }).go()).data).toBeNull();
    }
    expect((await db.entities.user.get({ userId: me.userId }).go()).data).toBeNull();
    expect((await db.entities.block.query.byUser({ userId: me.userId }).go()).data).toEqual([]);
    // The report stays for the moderators.
    const { data: reports } = await db.entities.report.query.byObject({ objectType: 'story', objectId }).go();
    expect(reports).toHaveLength(1);
    const usernameCheck = await get(`/userme/v/check/usernameIsFree?username=${me.username}`);
    expect(usernameCheck.json).toEqual({ username: me.username, isFree: true, reason: null });

    // The same email logs in again as a brand-new account.
    const again = await logIn(me.email);
    expect(again.isNewAccount).toBe(true);
    expect(again.userId).not.toBe(me.userId);
    const overview = await get('/me/v/account', again.token);
    expect(overview.json).toMatchObject({ user: { userId: again.userId, email: me.email }, blockedUsers: [] });
  });

  it('refuses when the login is older than 15 minutes, and keeps the account', async () => {
    // Prepare: a session created 20 minutes ago, sent as the ssoat header as a non-browser caller would.
    const me = await logIn();
    const old = await createSession(getDb(), me.userId, { now: new Date(Date.now() - 20 * 60_000) });
    sessionTokens.push(old.token);

    // Act
    const refused = await answer(
      fetch(`${runtime.url}${USER}/me/mod`, {
        method: 'DELETE',
        headers: { 'x-application-id': WEB_APPLICATION_ID, ssoat: old.token },
      }),
    );

    // Assess
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({
      code: 'RECENT_LOGIN_REQUIRED',
      message: 'For your safety, log in again (within the last 15 minutes) before deleting your account.',
    });
    expect(refused.headers.getSetCookie()).toEqual([]);
    expect((await get('/me/v', me.token)).status).toBe(200);
    expect((await answer(runtime.get(`${USER}/me/v`, { ssoat: old.token }))).status).toBe(200);
    expect((await getDb().entities.user.get({ userId: me.userId }).go()).data).not.toBeNull();
  });
});

describe('without a session', () => {
  it('answers 401 on every route of this feature', async () => {
    // Prepare
    const target = randomUUID();

    // Act
    const answers = await Promise.all([
      get('/me/v/account'),
      get('/me/v/sessions'),
      post(`/me/mod/interact-user/${target}/block`, undefined),
      post(`/me/mod/interact-user/${target}/unblock`, undefined),
      post('/me/mod/report/object', { objectType: 'story', objectId: 's1', reason: 'spam' }),
      del(`/me/mod/session/${target}`),
      del('/me/mod'),
    ]);

    // Assess
    expect(answers.map((reply) => reply.status)).toEqual([401, 401, 401, 401, 401, 401, 401]);
    for (const reply of answers) expect(reply.json).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('session tokens', () => {
  it('never appear, nor their hashes, in any answer body', () => {
    // Assess
    expect(sessionTokens.length).toBeGreaterThanOrEqual(10);
    for (const token of sessionTokens) {
      for (const body of bodies) {
        expect(body).not.toContain(token);
        expect(body).not.toContain(hashToken(token));
      }
    }
  });
});
