import { beforeAll, describe, expect, it } from 'vitest';
import { checkUsername, findOrCreateUserByEmail, usernameBase } from '../../functions/lib/accounts';
import { hashToken } from '../../functions/lib/app-auth';
import {
  clearedSessionCookies,
  createSession,
  deleteSession,
  renewSession,
  resolveSession,
  SESSION_LIFETIME_SECONDS,
  sessionCookie,
} from '../../functions/lib/sessions';
import { createTestTable, type TestTable } from '../support/dynamo';

let table: TestTable;
const DAY_MS = 24 * 3600 * 1000;

beforeAll(async () => {
  table = await createTestTable();
});

describe('accounts created at first login', () => {
  it('creates one account per email, with a username taken from the address, and finds it again', async () => {
    // Act
    const first = await findOrCreateUserByEmail(table.db, 'Jane.Doe+news@Example.com');
    const second = await findOrCreateUserByEmail(table.db, 'jane.doe+news@example.com');

    // Assess
    expect(first.isNew).toBe(true);
    expect(first.user.username).toBe('janedoe');
    expect(first.user.emailVerified).toBe(true);
    expect(second.isNew).toBe(false);
    expect(second.user.userId).toBe(first.user.userId);
  });

  it('gives exactly one account to five simultaneous first logins of one address', async () => {
    // Act
    const results = await Promise.all(Array.from({ length: 5 }, () => findOrCreateUserByEmail(table.db, 'race@example.com')));

    // Assess
    expect(new Set(results.map((result) => result.user.userId)).size).toBe(1);
    expect(results.filter((result) => result.isNew)).toHaveLength(1);
  });

  it('gives the second person with the same address name a different username', async () => {
    // Act
    const first = await findOrCreateUserByEmail(table.db, 'sam@one.example');
    const second = await findOrCreateUserByEmail(table.db, 'sam@two.example');

    // Assess
    expect(first.user.username).toBe('sam');
    expect(second.user.username).toMatch(/^sam\d+$/);
    expect(await checkUsername(table.db, 'SAM')).toEqual({ isFree: false, reason: "'SAM' is taken" });
  });

  it('never derives a reserved or too-short username from an address', () => {
    // Act / Assess
    expect(usernameBase('settings@example.com')).toBe('readersettings');
    expect(usernameBase('al@example.com')).toBe('readeral');
  });
});

describe('username checks', () => {
  it('explains why a username cannot be taken', async () => {
    // Act
    const verdicts = await Promise.all(
      ['me', 'Stats', 'a b', 'xy', 'fresh_name_42'].map((name) => checkUsername(table.db, name)),
    );

    // Assess
    expect(verdicts).toEqual([
      { isFree: false, reason: 'Usernames have at least 3 characters' },
      { isFree: false, reason: "'Stats' is reserved" },
      { isFree: false, reason: 'Use letters, digits and underscores only' },
      { isFree: false, reason: 'Usernames have at least 3 characters' },
      { isFree: true, reason: null },
    ]);
  });
});

describe('sessions', () => {
  it('resolves a fresh session to its user and stores only the token hash', async () => {
    // Prepare
    const { user } = await findOrCreateUserByEmail(table.db, 'session@example.com');

    // Act
    const { token, sessionId } = await createSession(table.db, user.userId, { userAgent: 'vitest' });
    const resolved = await resolveSession(table.db, token);
    const stored = await table.db.entities.session.get({ tokenHash: hashToken(token) }).go();

    // Assess
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(resolved?.caller).toEqual({
      kind: 'user',
      userId: user.userId,
      sessionId,
      isSuperUser: false,
      verifiedEmail: 'session@example.com',
    });
    expect(resolved?.renewalDue).toBe(false);
    expect(JSON.stringify(stored.data)).not.toContain(token);
  });

  it('expires after 60 days without use, is due for renewal at most every five minutes while used, and dies at logout', async () => {
    // Prepare
    const { user } = await findOrCreateUserByEmail(table.db, 'renew@example.com');
    const start = new Date('2026-01-01T00:00:00Z');
    const { token } = await createSession(table.db, user.userId, { now: start });

    const at = (days: number) => new Date(start.getTime() + days * DAY_MS);
    const expiresAt = async () => (await table.db.entities.session.get({ tokenHash: hashToken(token) }).go()).data?.expiresAt;

    // Act
    const initialExpiry = await expiresAt();
    const afterFiftyDays = await resolveSession(table.db, token, at(50));
    const expiryAfterResolving = await expiresAt();
    if (afterFiftyDays?.renewalDue) await renewSession(table.db, afterFiftyDays.tokenHash, at(50));
    const renewedTo = await expiresAt();
    const twoMinutesLater = new Date(at(50).getTime() + 2 * 60_000);
    const soonAfter = await resolveSession(table.db, token, twoMinutesLater);
    // A request that saw the session due too late (another one renewed it meanwhile) writes nothing.
    await renewSession(table.db, hashToken(token), twoMinutesLater);
    const expiryAfterLateRenewal = await expiresAt();
    const afterHundredElevenDays = await resolveSession(table.db, token, at(111));
    const { token: second } = await createSession(table.db, user.userId, { now: start });
    // Seen once, so the function knows whose it is and reads session and user together.
    const beforeLogout = await resolveSession(table.db, second, at(1));
    await deleteSession(table.db, second);
    const afterLogout = await resolveSession(table.db, second, at(1));

    // Assess
    expect(afterFiftyDays?.caller.userId).toBe(user.userId);
    expect(afterFiftyDays?.renewalDue).toBe(true);
    // Resolving never writes: read-only routes resolve sessions too.
    expect(expiryAfterResolving).toBe(initialExpiry);
    expect(renewedTo).toBe(Math.floor(at(50).getTime() / 1000) + SESSION_LIFETIME_SECONDS);
    expect(soonAfter?.renewalDue).toBe(false);
    expect(expiryAfterLateRenewal).toBe(renewedTo);
    expect(afterHundredElevenDays).toBeNull();
    expect(beforeLogout?.caller.userId).toBe(user.userId);
    expect(afterLogout).toBeNull();
  });

  it('reads the user afresh on every call, so a change to them shows at the next one', async () => {
    // Prepare
    const { user } = await findOrCreateUserByEmail(table.db, 'promoted@example.com');
    const { token } = await createSession(table.db, user.userId);
    const before = await resolveSession(table.db, token);

    // Act
    await table.db.entities.user.patch({ userId: user.userId }).set({ isSuperUser: true }).go();
    const after = await resolveSession(table.db, token);

    // Assess
    expect(before?.caller).toMatchObject({ userId: user.userId, isSuperUser: false });
    expect(after?.caller).toMatchObject({ userId: user.userId, isSuperUser: true });
  });

  it('refuses unknown and malformed tokens', async () => {
    // Act / Assess
    await expect(resolveSession(table.db, 'x'.repeat(43))).resolves.toBeNull();
    await expect(resolveSession(table.db, 'short')).resolves.toBeNull();
  });

  it('sets the cookie HttpOnly, Secure, SameSite=Lax, on the parent domain when configured', () => {
    // Act
    const local = sessionCookie('tok');
    const cloud = sessionCookie('tok', { domain: '.toppubs.example' });

    // Assess
    expect(local).toBe('ssoat=tok; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=34560000');
    expect(cloud).toBe('ssoat=tok; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=34560000; Domain=.toppubs.example');
  });

  it('clears the session cookie and its hint, host-only and on the parent domain when one is configured', () => {
    // Act
    const local = clearedSessionCookies();
    const cloud = clearedSessionCookies({ domain: '.toppubs.example' });

    // Assess
    expect(local).toEqual([
      'ssoat=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0',
      'ssoh=; Path=/; Secure; SameSite=Lax; Max-Age=0',
    ]);
    expect(cloud).toEqual([
      'ssoat=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0',
      'ssoh=; Path=/; Secure; SameSite=Lax; Max-Age=0',
      'ssoat=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0; Domain=.toppubs.example',
      'ssoh=; Path=/; Secure; SameSite=Lax; Max-Age=0; Domain=.toppubs.example',
    ]);
  });
});
