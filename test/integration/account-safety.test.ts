import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../functions/lib/app-auth';
import { getDb } from '../../functions/lib/db/service';
import { createSession } from '../../functions/lib/sessions';
import { SESSION_HEADER } from '../../shared/constants';
import { type BodyOf, routes } from '../../shared/routes';
import { DEFAULT_EMAIL_PREFERENCES } from '../../shared/schemas/account';
import {
  type ApiClient,
  clearedSessionCookies,
  createApiClient,
  expectError,
  expectOk,
  invalid,
  type Session,
  type SignedInUser,
} from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let api: ApiClient;
/** Every answer's body and every session token handed out, to check no answer ever carries a token. */
const bodies: string[] = [];
const sessionTokens: string[] = [];

/** Logs an address in for real (a new account unless the address has one), remembering the token. */
async function logIn(email?: string): Promise<SignedInUser> {
  const user = await api.signIn('reader', email === undefined ? {} : { email });
  sessionTokens.push(user.token);
  return user;
}

async function sessionsOf(session: Session) {
  const listed = await api.call(routes.listSessions, { as: session });
  if (!listed.ok) throw new Error(`Listing sessions failed: ${listed.status}`);
  return listed.body.sessions;
}

const currentSessionId = async (session: Session) => (await sessionsOf(session)).find((row) => row.isCurrent)?.sessionId ?? '';

const currentUser = (session: Session) => api.call(routes.getMe, { as: session });
const account = (session: Session) => api.call(routes.getAccount, { as: session });
const block = (session: Session, userId: string) => api.call(routes.blockUser, { params: { userId }, as: session });
const unblock = (session: Session, userId: string) => api.call(routes.unblockUser, { params: { userId }, as: session });
const report = (session: Session, body: BodyOf<typeof routes.reportObject>) =>
  api.call(routes.reportObject, { body, as: session });
const endSession = (session: Session, sessionId: string) => api.call(routes.endSession, { params: { sessionId }, as: session });
const deleteAccount = (session: Session) => api.call(routes.deleteAccount, { as: session });

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = createApiClient(runtime, { onAnswer: ({ text }) => bodies.push(text) });
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
    const blocked = await block(me, other.userId);
    const blockedAgain = await block(me, other.userId);
    const whileBlocked = await account(me);
    const unblocked = await unblock(me, other.userId);
    const unblockedAgain = await unblock(me, other.userId);
    const afterUnblock = await account(me);

    // Assess
    expectOk(blocked);
    expect(blocked.body).toEqual({ userId: other.userId, blocked: true });
    expectOk(blockedAgain);
    expect(blockedAgain.body).toEqual({ userId: other.userId, blocked: true });
    expectOk(whileBlocked);
    expect(whileBlocked.body).toMatchObject({
      user: { userId: me.userId, username: me.username, email: me.email, emailVerified: true },
      settings: {},
      emailPreferences: DEFAULT_EMAIL_PREFERENCES,
    });
    const blockedUsers = whileBlocked.body.blockedUsers;
    expect(blockedUsers).toHaveLength(1);
    expect(blockedUsers[0]).toMatchObject({ userId: other.userId, username: other.username });
    // Public users only: the blocked user's email is never shown.
    expect(blockedUsers[0]).not.toHaveProperty('email');
    expectOk(unblocked);
    expect(unblocked.body).toEqual({ userId: other.userId, blocked: false });
    expectOk(unblockedAgain);
    expect(unblockedAgain.body).toEqual({ userId: other.userId, blocked: false });
    expectOk(afterUnblock);
    expect(afterUnblock.body.blockedUsers).toEqual([]);
  });

  it('refuses to block yourself', async () => {
    // Prepare
    const me = await logIn();

    // Act
    const blocked = await block(me, me.userId);
    const inCapitals = await block(me, me.userId.toUpperCase());

    // Assess
    expectError(blocked, 400);
    expect(blocked.body).toMatchObject({ code: 'BAD_REQUEST', message: 'You cannot block yourself' });
    expectError(inCapitals, 400);
    expect(inCapitals.body).toMatchObject({ code: 'BAD_REQUEST', message: 'You cannot block yourself' });
    const overview = await account(me);
    expectOk(overview);
    expect(overview.body.blockedUsers).toEqual([]);
    expect(overview.body.connectedAccounts).toEqual([]);
  });

  it('answers 404 for a user that does not exist', async () => {
    // Prepare
    const me = await logIn();
    const nobody = randomUUID();

    // Act
    const blocked = await block(me, nobody);
    const unblocked = await unblock(me, nobody);

    // Assess
    expectError(blocked, 404);
    expect(blocked.body).toMatchObject({ code: 'NOT_FOUND', message: 'No such user' });
    expectError(unblocked, 404);
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
    const first = await report(me, { objectType: 'story', objectId, reason: 'spam', details: 'Links to a casino' });
    const { data: afterFirst } = await getDb().entities.report.query.byObject({ objectType: 'story', objectId }).go();
    const second = await report(me, { objectType: 'story', objectId, reason: 'abuse', details: 'Insults readers' });
    const { data: afterSecond } = await getDb().entities.report.query.byObject({ objectType: 'story', objectId }).go();

    // Assess
    expectOk(first);
    expect(first.body).toEqual({ reported: true, isNew: true });
    expectOk(second);
    expect(second.body).toEqual({ reported: true, isNew: false });
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
    const byOne = await report(one, { objectType: 'publication', objectId, reason: 'copyright' });
    const byTwo = await report(two, { objectType: 'publication', objectId, reason: 'other' });

    // Assess
    expect(byOne.body).toEqual({ reported: true, isNew: true });
    expect(byTwo.body).toEqual({ reported: true, isNew: true });
    const { data: reports } = await getDb().entities.report.query.byObject({ objectType: 'publication', objectId }).go();
    expect(reports.map((row) => row.reporterId).sort()).toEqual([one.userId, two.userId].sort());
  });

  it('makes one report of a person named by id and by username, and of a publication named in two letter cases', async () => {
    // Prepare
    const [me, them] = [await logIn(), await logIn()];
    const themAccount = await account(them);
    expectOk(themAccount);
    const slug = `probe-pub-${randomUUID()}`;

    // Act
    const byId = await report(me, { objectType: 'user', objectId: them.userId, reason: 'abuse' });
    const byName = await report(me, { objectType: 'user', objectId: themAccount.body.user.username, reason: 'abuse' });
    const lower = await report(me, { objectType: 'publication', objectId: slug, reason: 'spam' });
    const upper = await report(me, { objectType: 'publication', objectId: slug.toUpperCase(), reason: 'spam' });
    const myAccount = await account(me);
    expectOk(myAccount);
    const myself = await report(me, { objectType: 'user', objectId: myAccount.body.user.username.toUpperCase(), reason: 'other' });

    // Assess
    expect([byId.body, byName.body]).toEqual([
      { reported: true, isNew: true },
      { reported: true, isNew: false },
    ]);
    expect([lower.body, upper.body]).toEqual([
      { reported: true, isNew: true },
      { reported: true, isNew: false },
    ]);
    expectError(myself, 400);
    const { data: userReports } = await getDb()
      .entities.report.query.byObject({ objectType: 'user', objectId: them.userId })
      .go();
    expect(userReports).toHaveLength(1);
  });

  it('keeps object ids that differ only in case apart', async () => {
    // Prepare
    const me = await logIn();
    const objectId = `File-${randomUUID()}`;

    // Act
    const mixed = await report(me, { objectType: 'file', objectId, reason: 'copyright' });
    const lower = await report(me, { objectType: 'file', objectId: objectId.toLowerCase(), reason: 'copyright' });

    // Assess
    expect(mixed.body).toEqual({ reported: true, isNew: true });
    expect(lower.body).toEqual({ reported: true, isNew: true });
    const { data: reports } = await getDb().entities.report.query.byObject({ objectType: 'file', objectId }).go();
    expect(reports.map((row) => row.objectId)).toEqual([objectId]);
  });

  it('names the field when the report is malformed', async () => {
    // Prepare
    const me = await logIn();

    // Act
    const unknownType = await report(me, invalid({ objectType: 'message', objectId: 'c1', reason: 'spam' }));
    const unknownField = await report(me, invalid({ objectType: 'story', objectId: 's1', reason: 'spam', severity: 'high' }));

    // Assess
    expectError(unknownType, 400);
    expect(unknownType.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(unknownType.body.fields).toEqual([expect.objectContaining({ in: 'body', field: 'objectType' })]);
    expectError(unknownField, 400);
    expect(unknownField.body.fields).toEqual([{ in: 'body', field: 'severity', message: 'Unknown field' }]);
    const { data: reports } = await getDb().entities.report.query.byObject({ objectType: 'story', objectId: 's1' }).go();
    expect(reports).toEqual([]);
  });
});

describe('moderating reports', () => {
  const openReports = (session: Session, cursor?: string) =>
    api.call(routes.listOpenReports, { as: session, ...(cursor ? { query: { cursor } } : {}) });
  const resolve = (session: Session, objectType: string, objectId: string, resolution: string) =>
    api.call(routes.resolveReports, {
      params: { objectType, objectId, resolution } as { objectType: 'story'; objectId: string; resolution: 'dismissed' },
      as: session,
    });

  it('lists open reports newest first with their reporters, for superusers only', async () => {
    // Prepare
    const [reporter, moderator] = [await logIn(), await api.signIn('moderator', { superuser: true })];
    const older = `story-${randomUUID()}`;
    const newer = `story-${randomUUID()}`;
    expectOk(await report(reporter, { objectType: 'story', objectId: older, reason: 'spam' }));
    expectOk(await report(reporter, { objectType: 'story', objectId: newer, reason: 'abuse', details: 'Slurs' }));

    // Act
    const listed = await openReports(moderator);
    const byUser = await openReports(reporter);

    // Assess
    expectOk(listed);
    const ours = listed.body.items.filter((item) => item.objectId === older || item.objectId === newer);
    expect(ours.map((item) => item.objectId)).toEqual([newer, older]);
    expect(ours[0]).toMatchObject({
      objectType: 'story',
      reason: 'abuse',
      details: 'Slurs',
      reporter: { userId: reporter.userId, username: expect.any(String) },
    });
    expectError(byUser, 403);
  });

  it("resolves all of an object's open reports at once; a new report opens it again", async () => {
    // Prepare
    const [one, two, moderator] = [await logIn(), await logIn(), await api.signIn('moderator', { superuser: true })];
    const objectId = `story-${randomUUID()}`;
    expectOk(await report(one, { objectType: 'story', objectId, reason: 'spam' }));
    expectOk(await report(two, { objectType: 'story', objectId, reason: 'spam' }));

    // Act
    const resolved = await resolve(moderator, 'story', objectId, 'actioned');
    const again = await resolve(moderator, 'story', objectId, 'dismissed');
    const afterResolve = await openReports(moderator);
    expectOk(await report(one, { objectType: 'story', objectId, reason: 'abuse' }));
    const afterNewReport = await openReports(moderator);

    // Assess
    expectOk(resolved);
    expect(resolved.body).toEqual({ resolved: 2 });
    expectOk(again);
    expect(again.body).toEqual({ resolved: 0 });
    expectOk(afterResolve);
    expect(afterResolve.body.items.filter((item) => item.objectId === objectId)).toEqual([]);
    expectOk(afterNewReport);
    expect(afterNewReport.body.items.filter((item) => item.objectId === objectId)).toEqual([
      expect.objectContaining({ reason: 'abuse', reporter: expect.objectContaining({ userId: one.userId }) }),
    ]);
    const { data: stored } = await getDb().entities.report.query.byObject({ objectType: 'story', objectId }).go();
    expect(stored.find((row) => row.reporterId === two.userId)).toMatchObject({
      status: 'resolved',
      resolution: 'actioned',
      resolvedBy: moderator.userId,
    });
  });

  it('refuses resolutions it does not define, and non-superusers', async () => {
    // Prepare
    const [user, moderator] = [await logIn(), await api.signIn('moderator', { superuser: true })];

    // Act
    const badResolution = await resolve(moderator, 'story', 'x1', 'deleted');
    const badType = await resolve(moderator, 'message', 'x1', 'dismissed');
    const byUser = await resolve(user, 'story', 'x1', 'dismissed');

    // Assess
    expectError(badResolution, 400);
    expectError(badType, 400);
    expectError(byUser, 403);
  });
});

describe('sessions', () => {
  it('lists the sessions of two logins, newest first, the current one flagged', async () => {
    // Prepare
    const first = await logIn();
    const second = await logIn(first.email);

    // Act
    const sessions = await sessionsOf(first);

    // Assess
    expect(second.userId).toBe(first.userId);
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((session) => session.isCurrent)).toHaveLength(1);
    expect(sessions[1]?.isCurrent).toBe(true);
    expect(sessions[0]?.sessionId).toBe(await currentSessionId(second));
    expect(Date.parse(sessions[0]?.createdAt ?? '')).toBeGreaterThanOrEqual(Date.parse(sessions[1]?.createdAt ?? ''));
    for (const session of sessions)
      expect(Object.keys(session).sort()).toEqual(['createdAt', 'isCurrent', 'lastUsedAt', 'sessionId', 'userAgent']);
  });

  it('leaves expired sessions out of the list', async () => {
    // Prepare: a session created 61 days ago has expired (sessions live 60 days unless used).
    const me = await logIn();
    await createSession(getDb(), me.userId, { now: new Date(Date.now() - 61 * 24 * 3600 * 1000) });

    // Act
    const sessions = await sessionsOf(me);

    // Assess
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.isCurrent).toBe(true);
  });

  it('ends another session of the caller: its cookie stops working, the caller stays signed in', async () => {
    // Prepare
    const laptop = await logIn();
    const phone = await logIn(laptop.email);
    const phoneSessionId = await currentSessionId(phone);

    // Act
    const ended = await endSession(laptop, phoneSessionId);

    // Assess
    expectOk(ended);
    expect(ended.body).toEqual({ ended: true });
    expect(ended.cookies).toEqual([]);
    expectError(await currentUser(phone), 401);
    expectOk(await currentUser(laptop));
    expect((await sessionsOf(laptop)).map((session) => session.sessionId)).not.toContain(phoneSessionId);
  });

  it('ends the current session and clears its cookie', async () => {
    // Prepare
    const user = await logIn();
    const sessionId = await currentSessionId(user);

    // Act
    const ended = await endSession(user, sessionId);

    // Assess
    expectOk(ended);
    expect(ended.cookies).toEqual(clearedSessionCookies());
    expectError(await currentUser(user), 401);
  });

  it("answers 404 for someone else's session, as for an unknown one, and leaves it alone", async () => {
    // Prepare
    const user = await logIn();
    const stranger = await logIn();
    const strangersSessionId = await currentSessionId(stranger);

    // Act
    const theirs = await endSession(user, strangersSessionId);
    const unknown = await endSession(user, randomUUID());

    // Assess
    expectError(theirs, 404);
    expect(theirs.body).toEqual({ code: 'NOT_FOUND', message: 'No such session' });
    expectError(unknown, 404);
    expect(unknown.body).toEqual(theirs.body);
    expectOk(await currentUser(stranger));
  });
});

describe('deleting the account', () => {
  it('deletes the account after a fresh login: sessions ended, username and email free again', async () => {
    // Prepare
    const user = await logIn();
    const otherDevice = await logIn(user.email);
    const blockedUser = await logIn();
    expectOk(await block(user, blockedUser.userId));
    const objectId = `story-${randomUUID()}`;
    expectOk(await report(user, { objectType: 'story', objectId, reason: 'spam' }));
    const usernameIsFree = () => api.call(routes.checkUsernameIsFree, { query: { username: user.username } });
    expect((await usernameIsFree()).body).toMatchObject({ isFree: false });

    // Act
    const deleted = await deleteAccount(user);

    // Assess
    expectOk(deleted);
    expect(deleted.body).toEqual({ deleted: true });
    expect(deleted.cookies).toEqual(clearedSessionCookies());
    expectError(await currentUser(user), 401);
    expectError(await currentUser(otherDevice), 401);
    const db = getDb();
    const { data: sessions } = await db.entities.session.query.byUser({ userId: user.userId }).go();
    expect(sessions).toEqual([]);
    for (const { token } of [user, otherDevice]) {
      expect((await db.entities.session.get({ tokenHash: hashToken(token) }).go()).data).toBeNull();
    }
    expect((await db.entities.user.get({ userId: user.userId }).go()).data).toBeNull();
    expect((await db.entities.block.query.byUser({ userId: user.userId }).go()).data).toEqual([]);
    // The report stays for the moderators.
    const { data: reports } = await db.entities.report.query.byObject({ objectType: 'story', objectId }).go();
    expect(reports).toHaveLength(1);
    expect((await usernameIsFree()).body).toEqual({ username: user.username, isFree: true, reason: null });

    // The same email logs in again as a brand-new account.
    const again = await logIn(user.email);
    expect(again.isNewAccount).toBe(true);
    expect(again.userId).not.toBe(user.userId);
    const overview = await account(again);
    expect(overview.body).toMatchObject({ user: { userId: again.userId, email: user.email }, blockedUsers: [] });
  });

  it('refuses when the login is older than 15 minutes, and keeps the account', async () => {
    // Prepare: a session created 20 minutes ago, sent as the ssoat header as a non-browser caller would.
    const user = await logIn();
    const old = await createSession(getDb(), user.userId, { now: new Date(Date.now() - 20 * 60_000) });
    sessionTokens.push(old.token);
    const asHeader = { [SESSION_HEADER]: old.token };

    // Act
    const refused = await api.call(routes.deleteAccount, { headers: asHeader });

    // Assess
    expectError(refused, 403);
    expect(refused.body).toEqual({
      code: 'RECENT_LOGIN_REQUIRED',
      message: 'For your safety, log in again (within the last 15 minutes) before deleting your account.',
    });
    expect(refused.cookies).toEqual([]);
    expectOk(await currentUser(user));
    expectOk(await api.call(routes.getMe, { headers: asHeader }));
    expect((await getDb().entities.user.get({ userId: user.userId }).go()).data).not.toBeNull();
  });
});

describe('without a session', () => {
  it('answers 401 on every route of this feature', async () => {
    // Prepare
    const target = randomUUID();

    // Act
    const answers = await Promise.all([
      api.call(routes.getAccount),
      api.call(routes.listSessions),
      api.call(routes.blockUser, { params: { userId: target } }),
      api.call(routes.unblockUser, { params: { userId: target } }),
      api.call(routes.reportObject, { body: { objectType: 'story', objectId: 's1', reason: 'spam' } }),
      api.call(routes.endSession, { params: { sessionId: target } }),
      api.call(routes.deleteAccount),
    ]);

    // Assess
    expect(answers.map((reply) => reply.status)).toEqual([401, 401, 401, 401, 401, 401, 401]);
    for (const reply of answers) expect(reply.body).toMatchObject({ code: 'UNAUTHORIZED' });
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
