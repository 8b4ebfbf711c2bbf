import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueLoginLink } from '../../functions/account/lib/login-links';
import { registerAppClient } from '../../functions/lib/app-auth';
import { getDb } from '../../functions/lib/db/service';
import { APP_TOKEN_HEADER, APPLICATION_ID_HEADER, WEB_APPLICATION_ID } from '../../shared/constants';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

const USER = '/api/i/user';

let runtime: TestRuntime;

interface Account {
  userId: string;
  username: string;
  email: string;
  cookie: string;
}

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

/** Who asked, and what came back: to check at the end that no answer leaked someone else's email. */
const answers: { path: string; callerEmail: string | null; text: string }[] = [];
const emails: string[] = [];

async function call(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  options: { as?: Account; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.as) headers.cookie = `ssoat=${options.as.cookie}`;
  if (method !== 'GET') headers[APPLICATION_ID_HEADER] ??= WEB_APPLICATION_ID;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${runtime.url}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  answers.push({ path, callerEmail: options.as?.email ?? null, text });
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A fresh account, signed in for real: a login link straight from the issuer, spent at the confirm endpoint. */
async function signIn(label: string): Promise<Account> {
  const email = `${label}-${randomUUID().slice(0, 8)}@example.com`;
  emails.push(email);
  const { token } = await issueLoginLink(getDb(), { email });
  const response = await runtime.post(`${USER}/auth/login/email/confirm`, { token });
  if (response.status !== 200) throw new Error(`Login failed with ${response.status}: ${await response.text()}`);
  const cookie = /^ssoat=([^;]+);/.exec(response.headers.getSetCookie().find((value) => value.startsWith('ssoat=')) ?? '')?.[1];
  if (!cookie) throw new Error('No session cookie in the login answer');
  const { user } = (await response.json()) as { user: { userId: string; username: string } };
  return { userId: user.userId, username: user.username, email, cookie };
}

async function makeSuperUser(account: Account): Promise<void> {
  await getDb().entities.user.patch({ userId: account.userId }).set({ isSuperUser: true }).go();
}

/** A fresh, valid username nobody has. */
const freshUsername = (prefix = 'u') => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

const usernameClaim = async (username: string) =>
  (await getDb().entities.identityClaim.get({ kind: 'username', value: username.toLowerCase() }).go()).data;

beforeAll(async () => {
  runtime = await startTestRuntime({ seedPublications: 100 });
});

afterAll(async () => {
  await runtime?.close();
});

describe('reading users', () => {
  let alice: Account;
  let bob: Account;

  beforeAll(async () => {
    [alice, bob] = await Promise.all([signIn('alice'), signIn('bob')]);
  });

  it('gives a username by user id, and 404 for an unknown id', async () => {
    // Act
    const found = await call('GET', `${USER}/user/${alice.userId}/v/username`);
    const unknown = await call('GET', `${USER}/user/no-such-user/v/username`);

    // Assess
    expect(found.status).toBe(200);
    expect(found.json).toEqual({ userId: alice.userId, username: alice.username });
    expect(unknown.status).toBe(404);
  });

  it('finds a user id by username whatever the letter case', async () => {
    // Act
    const found = await call('GET', `${USER}/user/find/id/by/username/${alice.username.toUpperCase()}`);
    const unknown = await call('GET', `${USER}/user/find/id/by/username/${freshUsername()}`);

    // Assess
    expect(found.status).toBe(200);
    expect(found.json).toEqual({ userId: alice.userId, username: alice.username });
    expect(unknown.status).toBe(404);
  });

  it('gives the public user by id, without the email, and names the unknown id', async () => {
    // Act
    const found = await call('GET', `${USER}/${alice.userId}/v`, { as: bob });
    const unknown = await call('GET', `${USER}/no-such-user/v`);

    // Assess
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({
      id: alice.userId,
      userId: alice.userId,
      username: alice.username,
      hasEmail: true,
      hasValidEmail: true,
      isSuperUser: false,
    });
    expect(found.json).not.toHaveProperty('email');
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toContain("There is no user with the id 'no-such-user'");
  });

  it('gives the public user by id or by username', async () => {
    // Act
    const byId = await call('GET', `${USER}/${alice.userId}/v/idOrUsername`);
    const byUsername = await call('GET', `${USER}/${alice.username.toUpperCase()}/v/idOrUsername`);
    const unknown = await call('GET', `${USER}/${freshUsername()}/v/idOrUsername`);

    // Assess
    expect(byId.status).toBe(200);
    expect(byId.json).toMatchObject({ userId: alice.userId, username: alice.username });
    expect(byUsername.status).toBe(200);
    expect(byUsername.json).toEqual(byId.json);
    expect(byId.json).not.toHaveProperty('email');
    expect(unknown.status).toBe(404);
  });

  it('lists users by ids in the order asked, each once, leaving out unknown ids', async () => {
    // Act
    const listed = await call('POST', `${USER}/users/v`, {
      body: { ids: [bob.userId, alice.userId, 'no-such-user', bob.userId] },
    });
    const empty = await call('POST', `${USER}/users/v`, { body: { ids: [] } });

    // Assess
    expect(listed.status).toBe(200);
    const users = listed.json.users as Record<string, unknown>[];
    expect(users.map((user) => user.userId)).toEqual([bob.userId, alice.userId]);
    for (const user of users) expect(user).not.toHaveProperty('email');
    expect(empty.json).toEqual({ users: [] });
  });

  it('refuses more than 100 ids, naming the field', async () => {
    // Act
    const tooMany = await call('POST', `${USER}/users/v`, { body: { ids: Array.from({ length: 101 }, (_, i) => `id-${i}`) } });

    // Assess
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.fields).toEqual([{ in: 'body', field: 'ids', message: 'Ask for at most 100 users at once' }]);
  });
});

describe('finding a user by email', () => {
  let target: Account;
  let reader: Account;

  beforeAll(async () => {
    [target, reader] = await Promise.all([signIn('target'), signIn('reader')]);
  });

  it('needs credentials: 401 anonymous, 403 for a signed-in non-superuser', async () => {
    // Act
    const anonymous = await call('GET', `${USER}/user/find/full/by/email?email=${encodeURIComponent(target.email)}`);
    const signedIn = await call('GET', `${USER}/user/find/full/by/email?email=${encodeURIComponent(target.email)}`, {
      as: reader,
    });

    // Assess
    expect(anonymous.status).toBe(401);
    expect(signedIn.status).toBe(403);
    expect(JSON.stringify(anonymous.json) + JSON.stringify(signedIn.json)).not.toContain(target.email);
  });

  it('gives a registered app the full user, and 404 for an address without an account', async () => {
    // Prepare
    const appId = `it-app-${randomUUID().slice(0, 8)}`;
    const appToken = await registerAppClient(appId, 'Integration test app');
    const headers = { [APPLICATION_ID_HEADER]: appId, [APP_TOKEN_HEADER]: appToken };

    // Act
    const found = await call('GET', `${USER}/user/find/full/by/email?email=${encodeURIComponent(target.email.toUpperCase())}`, {
      headers,
    });
    const unknown = await call('GET', `${USER}/user/find/full/by/email?email=nobody-${randomUUID().slice(0, 8)}@example.com`, {
      headers,
    });
    const wrongToken = await call('GET', `${USER}/user/find/full/by/email?email=${encodeURIComponent(target.email)}`, {
      headers: { ...headers, [APP_TOKEN_HEADER]: `${appToken}x` },
    });

    // Assess
    expect(found.status).toBe(200);
    expect(found.json.user).toMatchObject({ userId: target.userId, email: target.email, emailVerified: true });
    expect(unknown.status).toBe(404);
    expect(wrongToken.status).toBe(401);
  });

  it('gives a superuser the full user', async () => {
    // Prepare
    const admin = await signIn('admin-email');
    await makeSuperUser(admin);

    // Act
    const found = await call('GET', `${USER}/user/find/full/by/email?email=${encodeURIComponent(target.email)}`, { as: admin });

    // Assess
    expect(found.status).toBe(200);
    expect(found.json.user).toMatchObject({ userId: target.userId, email: target.email });
  });

  it('names the email field when the address is malformed', async () => {
    // Prepare
    const admin = await signIn('admin-bad-email');
    await makeSuperUser(admin);

    // Act
    const bad = await call('GET', `${USER}/user/find/full/by/email?email=not-an-address`, { as: admin });

    // Assess
    expect(bad.status).toBe(400);
    expect(bad.json.fields).toEqual([expect.objectContaining({ in: 'query', field: 'email' })]);
  });
});

describe('signed-in routes without a session', () => {
  it.each([
    ['GET', `${USER}/me/v/settings`, undefined],
    ['POST', `${USER}/some-user/mod/settings`, { theme: 'dark' }],
    ['PUT', `${USER}/me/mod/profile`, { name: 'Nobody' }],
    ['PUT', `${USER}/me/mod/email/pref`, { productUpdates: false, weeklyDigest: false, notificationEmails: false }],
  ] as const)('%s %s answers 401', async (method, path, body) => {
    // Act
    const answer = await call(method, path, body === undefined ? {} : { body });

    // Assess
    expect(answer.status).toBe(401);
    expect(answer.json).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('settings', () => {
  let owner: Account;
  let other: Account;

  beforeAll(async () => {
    [owner, other] = await Promise.all([signIn('settings-owner'), signIn('settings-other')]);
  });

  it('starts empty', async () => {
    // Act
    const settings = await call('GET', `${USER}/me/v/settings`, { as: owner });

    // Assess
    expect(settings.status).toBe(200);
    expect(settings.json).toEqual({ settings: {} });
  });

  it('merges each change into the stored settings', async () => {
    // Act
    const first = await call('POST', `${USER}/${owner.userId}/mod/settings`, { as: owner, body: { theme: 'dark' } });
    const second = await call('POST', `${USER}/${owner.userId}/mod/settings`, {
      as: owner,
      body: { timezone: 'Europe/Berlin', activeOnlyByDefault: true },
    });
    const read = await call('GET', `${USER}/me/v/settings`, { as: owner });

    // Assess
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ settings: { theme: 'dark' } });
    const merged = { theme: 'dark', timezone: 'Europe/Berlin', activeOnlyByDefault: true };
    expect(second.json).toEqual({ settings: merged });
    expect(read.json).toEqual({ settings: merged });
  });

  it("refuses to change another user's settings, and leaves them as they were", async () => {
    // Act
    const refused = await call('POST', `${USER}/${owner.userId}/mod/settings`, { as: other, body: { theme: 'light' } });
    const ownerSettings = await call('GET', `${USER}/me/v/settings`, { as: owner });

    // Assess
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe('You can only change your own settings.');
    expect((ownerSettings.json.settings as Record<string, unknown>).theme).toBe('dark');
  });

  it("lets a superuser change another user's settings, and says 404 for an unknown user", async () => {
    // Prepare
    const admin = await signIn('settings-admin');
    await makeSuperUser(admin);

    // Act
    const changed = await call('POST', `${USER}/${other.userId}/mod/settings`, { as: admin, body: { defaultBoard: 'growth' } });
    const unknown = await call('POST', `${USER}/no-such-user/mod/settings`, { as: admin, body: { theme: 'light' } });
    const otherSettings = await call('GET', `${USER}/me/v/settings`, { as: other });

    // Assess
    expect(changed.status).toBe(200);
    expect(changed.json).toEqual({ settings: { defaultBoard: 'growth' } });
    expect(otherSettings.json).toEqual({ settings: { defaultBoard: 'growth' } });
    expect(unknown.status).toBe(404);
  });

  it('names the bad field: a value out of range, or a field that does not exist', async () => {
    // Act
    const badValue = await call('POST', `${USER}/${owner.userId}/mod/settings`, { as: owner, body: { theme: 'blue' } });
    const unknownField = await call('POST', `${USER}/${owner.userId}/mod/settings`, { as: owner, body: { fontSize: 12 } });

    // Assess
    expect(badValue.status).toBe(400);
    expect(badValue.json.fields).toEqual([expect.objectContaining({ in: 'body', field: 'theme' })]);
    expect(unknownField.status).toBe(400);
    expect(unknownField.json.fields).toEqual([{ in: 'body', field: 'fontSize', message: 'Unknown field' }]);
  });
});

describe('email preferences', () => {
  it('replaces the preferences and returns them', async () => {
    // Prepare
    const account = await signIn('prefs');
    const preferences = { productUpdates: false, weeklyDigest: true, notificationEmails: false };

    // Act
    const updated = await call('PUT', `${USER}/me/mod/email/pref`, { as: account, body: preferences });

    // Assess
    expect(updated.status).toBe(200);
    expect(updated.json).toEqual({ emailPreferences: preferences });
    const { data: stored } = await getDb().entities.user.get({ userId: account.userId }).go();
    expect(stored?.emailPreferences).toEqual(preferences);
  });

  it('needs every preference, and names the missing one', async () => {
    // Prepare
    const account = await signIn('prefs-bad');

    // Act
    const partial = await call('PUT', `${USER}/me/mod/email/pref`, {
      as: account,
      body: { productUpdates: false, weeklyDigest: true },
    });

    // Assess
    expect(partial.status).toBe(400);
    expect(partial.json.fields).toEqual([expect.objectContaining({ in: 'body', field: 'notificationEmails' })]);
  });
});

describe('profile', () => {
  it('changes name, website and image, and returns the own full user with the email', async () => {
    // Prepare
    const account = await signIn('profile');

    // Act
    const updated = await call('PUT', `${USER}/me/mod/profile`, {
      as: account,
      body: { name: '  Ada Lovelace ', websiteUrl: 'https://ada.example.com', imageUrl: 'https://img.example.com/ada.png' },
    });
    const publicView = await call('GET', `${USER}/${account.userId}/v`);

    // Assess
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({
      userId: account.userId,
      username: account.username,
      name: 'Ada Lovelace',
      websiteUrl: 'https://ada.example.com',
      imageUrl: 'https://img.example.com/ada.png',
      hasOwnImageUrl: true,
      email: account.email,
      emailVerified: true,
    });
    expect(publicView.json).toMatchObject({ name: 'Ada Lovelace', websiteUrl: 'https://ada.example.com' });
    expect(publicView.json).not.toHaveProperty('email');
  });

  it('clears website and image with null, keeping the rest', async () => {
    // Prepare
    const account = await signIn('profile-clear');
    await call('PUT', `${USER}/me/mod/profile`, {
      as: account,
      body: { name: 'Kept', websiteUrl: 'https://kept.example.com', imageUrl: 'https://img.example.com/x.png' },
    });

    // Act
    const cleared = await call('PUT', `${USER}/me/mod/profile`, { as: account, body: { websiteUrl: null, imageUrl: null } });

    // Assess
    expect(cleared.status).toBe(200);
    expect(cleared.json).toMatchObject({ name: 'Kept', websiteUrl: null, imageUrl: null, hasOwnImageUrl: false });
  });

  it('names the bad field: a website that is not a URL, or a field that does not exist', async () => {
    // Prepare
    const account = await signIn('profile-bad');

    // Act
    const badUrl = await call('PUT', `${USER}/me/mod/profile`, { as: account, body: { websiteUrl: 'not a url' } });
    const unknownField = await call('PUT', `${USER}/me/mod/profile`, { as: account, body: { email: 'x@example.com' } });

    // Assess
    expect(badUrl.status).toBe(400);
    expect(badUrl.json.fields).toEqual([{ in: 'body', field: 'websiteUrl', message: 'Must be an http(s) URL' }]);
    expect(unknownField.status).toBe(400);
    expect(unknownField.json.fields).toEqual([{ in: 'body', field: 'email', message: 'Unknown field' }]);
  });
});

describe('changing the username', () => {
  it('takes a free name, and frees the old one for others', async () => {
    // Prepare
    const [account, latecomer] = await Promise.all([signIn('rename'), signIn('latecomer')]);
    const oldName = account.username;
    const newName = freshUsername('New');

    // Act
    const renamed = await call('PUT', `${USER}/me/mod/profile`, { as: account, body: { username: newName } });

    // Assess
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ userId: account.userId, username: newName });
    const byNew = await call('GET', `${USER}/user/find/id/by/username/${newName.toLowerCase()}`);
    expect(byNew.json).toEqual({ userId: account.userId, username: newName });
    expect((await call('GET', `${USER}/user/find/id/by/username/${oldName}`)).status).toBe(404);
    const free = await call('GET', `${USER}/userme/v/check/usernameIsFree?username=${oldName}`);
    expect(free.json).toEqual({ username: oldName, isFree: true, reason: null });
    expect(await usernameClaim(oldName)).toBeNull();
    const takeOver = await call('PUT', `${USER}/me/mod/profile`, { as: latecomer, body: { username: oldName } });
    expect(takeOver.status).toBe(200);
    expect((await call('GET', `${USER}/user/find/id/by/username/${oldName}`)).json.userId).toBe(latecomer.userId);
  });

  it("refuses someone else's username (any letter case) with 409, changing nothing", async () => {
    // Prepare
    const [holder, account] = await Promise.all([signIn('holder'), signIn('wants')]);

    // Act
    const taken = await call('PUT', `${USER}/me/mod/profile`, {
      as: account,
      body: { username: holder.username.toUpperCase(), name: 'Not Saved' },
    });

    // Assess
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ code: 'CONFLICT', message: 'That username is taken' });
    const me = await call('GET', `${USER}/${account.userId}/v`);
    expect(me.json).toMatchObject({ username: account.username, name: '' });
    expect((await usernameClaim(holder.username))?.userId).toBe(holder.userId);
  });

  it('refuses a reserved username with 400 and the reason', async () => {
    // Prepare
    const account = await signIn('reserved');

    // Act
    const reserved = await call('PUT', `${USER}/me/mod/profile`, { as: account, body: { username: 'Admin' } });

    // Assess
    expect(reserved.status).toBe(400);
    expect(reserved.json.message).toBe("'Admin' is reserved");
    expect(reserved.json.fields).toEqual([{ in: 'body', field: 'username', message: "'Admin' is reserved" }]);
  });

  it('refuses a malformed username, naming the field', async () => {
    // Prepare
    const account = await signIn('malformed');

    // Act
    const malformed = await call('PUT', `${USER}/me/mod/profile`, { as: account, body: { username: 'no spaces' } });

    // Assess
    expect(malformed.status).toBe(400);
    expect(malformed.json.fields).toEqual([
      { in: 'body', field: 'username', message: 'Use letters, digits and underscores only' },
    ]);
  });

  it('changes only the letter case of its own username', async () => {
    // Prepare
    const account = await signIn('casechange');
    const upper = account.username.toUpperCase();

    // Act
    const changed = await call('PUT', `${USER}/me/mod/profile`, { as: account, body: { username: upper } });

    // Assess
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({ userId: account.userId, username: upper });
    expect((await call('GET', `${USER}/user/${account.userId}/v/username`)).json).toEqual({
      userId: account.userId,
      username: upper,
    });
    expect((await usernameClaim(upper))?.userId).toBe(account.userId);
  });

  it('gives a new name claimed by two users at once to exactly one of them', async () => {
    // Prepare
    const [first, second] = await Promise.all([signIn('racer-a'), signIn('racer-b')]);
    const contested = freshUsername('Race');

    // Act
    const results = await Promise.all(
      [first, second].map((account) => call('PUT', `${USER}/me/mod/profile`, { as: account, body: { username: contested } })),
    );

    // Assess
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    const winnerIndex = results.findIndex((result) => result.status === 200);
    const winner = [first, second][winnerIndex] as Account;
    const loser = [first, second][1 - winnerIndex] as Account;
    expect(results[1 - winnerIndex]?.json.message).toBe('That username is taken');
    const resolved = await call('GET', `${USER}/user/find/id/by/username/${contested}`);
    expect(resolved.json).toEqual({ userId: winner.userId, username: contested });
    // The loser keeps the old name and its claim.
    expect((await call('GET', `${USER}/user/${loser.userId}/v/username`)).json.username).toBe(loser.username);
    expect((await usernameClaim(loser.username))?.userId).toBe(loser.userId);
    expect(await usernameClaim(winner.username)).toBeNull();
  });
});

describe('privacy', () => {
  it("never answers with another user's email (only the app/superuser lookup by email does)", () => {
    // Assess
    expect(answers.length).toBeGreaterThan(20);
    for (const answer of answers) {
      if (answer.path.includes('/user/find/full/by/email')) continue;
      for (const email of emails) {
        if (email !== answer.callerEmail) expect(answer.text, answer.path).not.toContain(email);
      }
    }
  });
});
