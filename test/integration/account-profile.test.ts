import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../functions/lib/db/service';
import { routes } from '../../shared/routes';
import {
  type ApiClient,
  createApiClient,
  describeRoute,
  expectError,
  expectOk,
  invalid,
  makeSuperUser,
  registerApp,
  type SignedInUser,
} from '../support/api-client';
import { startTestRuntime, type TestRuntime } from '../support/local-runtime';

let runtime: TestRuntime;
let api: ApiClient;

/** Who asked, and what came back: to check at the end that no answer leaked someone else's email. */
const answers: { path: string; isEmailLookup: boolean; callerEmail: string | null; text: string }[] = [];
const emails: string[] = [];

/** A fresh account, signed in for real, whose address the privacy check watches for. */
async function signIn(label: string): Promise<SignedInUser> {
  const user = await api.signIn(label);
  emails.push(user.email);
  return user;
}

/** A fresh, valid username nobody has. */
const freshUsername = (prefix = 'u') => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

const usernameClaim = async (username: string) =>
  (await getDb().entities.identityClaim.get({ kind: 'username', value: username.toLowerCase() }).go()).data;

beforeAll(async () => {
  runtime = await startTestRuntime();
  api = createApiClient(runtime, {
    onAnswer: ({ route, url, as, text }) =>
      answers.push({
        path: url,
        isEmailLookup: route === routes.findUserByEmail,
        callerEmail: as && 'email' in as && typeof as.email === 'string' ? as.email : null,
        text,
      }),
  });
});

afterAll(async () => {
  await runtime?.close();
});

describe('reading users', () => {
  let alice: SignedInUser;
  let bob: SignedInUser;

  beforeAll(async () => {
    [alice, bob] = await Promise.all([signIn('alice'), signIn('bob')]);
  });

  it('gives a username by user id, and 404 for an unknown id', async () => {
    // Act
    const found = await api.call(routes.getUsername, { params: { userId: alice.userId } });
    const unknown = await api.call(routes.getUsername, { params: { userId: 'no-such-user' } });

    // Assess
    expectOk(found);
    expect(found.body).toEqual({ userId: alice.userId, username: alice.username });
    expectError(unknown, 404);
  });

  it('finds a user id by username whatever the letter case', async () => {
    // Act
    const found = await api.call(routes.findIdByUsername, { params: { username: alice.username.toUpperCase() } });
    const unknown = await api.call(routes.findIdByUsername, { params: { username: freshUsername() } });

    // Assess
    expectOk(found);
    expect(found.body).toEqual({ userId: alice.userId, username: alice.username });
    expectError(unknown, 404);
  });

  it('gives the public user by id, without the email, and names the unknown id', async () => {
    // Act
    const found = await api.call(routes.getUser, { params: { id: alice.userId }, as: bob });
    const unknown = await api.call(routes.getUser, { params: { id: 'no-such-user' } });

    // Assess
    expectOk(found);
    expect(found.body).toMatchObject({
      id: alice.userId,
      userId: alice.userId,
      username: alice.username,
      hasEmail: true,
      hasValidEmail: true,
      isSuperUser: false,
    });
    expect(found.body).not.toHaveProperty('email');
    expectError(unknown, 404);
    expect(unknown.body.message).toContain("There is no user with the id 'no-such-user'");
  });

  it('gives the public user by id or by username', async () => {
    // Act
    const byId = await api.call(routes.getUserByIdOrUsername, { params: { id: alice.userId } });
    const byUsername = await api.call(routes.getUserByIdOrUsername, { params: { id: alice.username.toUpperCase() } });
    const unknown = await api.call(routes.getUserByIdOrUsername, { params: { id: freshUsername() } });

    // Assess
    expectOk(byId);
    expect(byId.body).toMatchObject({ userId: alice.userId, username: alice.username });
    expectOk(byUsername);
    expect(byUsername.body).toEqual(byId.body);
    expect(byId.body).not.toHaveProperty('email');
    expectError(unknown, 404);
  });

  it('lists users by ids in the order asked, each once, leaving out unknown ids', async () => {
    // Act
    const listed = await api.call(routes.listUsers, { body: { ids: [bob.userId, alice.userId, 'no-such-user', bob.userId] } });
    const empty = await api.call(routes.listUsers, { body: { ids: [] } });

    // Assess
    expectOk(listed);
    const users = listed.body.users;
    expect(users.map((user) => user.userId)).toEqual([bob.userId, alice.userId]);
    for (const user of users) expect(user).not.toHaveProperty('email');
    expect(empty.body).toEqual({ users: [] });
  });

  it('refuses more than 100 ids, naming the field', async () => {
    // Act
    const tooMany = await api.call(routes.listUsers, { body: { ids: Array.from({ length: 101 }, (_, i) => `id-${i}`) } });

    // Assess
    expectError(tooMany, 400);
    expect(tooMany.body.fields).toEqual([{ in: 'body', field: 'ids', message: 'Ask for at most 100 users at once' }]);
  });
});

describe('finding a user by email', () => {
  let target: SignedInUser;
  let reader: SignedInUser;

  beforeAll(async () => {
    [target, reader] = await Promise.all([signIn('target'), signIn('reader')]);
  });

  it('needs credentials: 401 anonymous, 403 for a signed-in non-superuser', async () => {
    // Act
    const anonymous = await api.call(routes.findUserByEmail, { query: { email: target.email } });
    const signedIn = await api.call(routes.findUserByEmail, { query: { email: target.email }, as: reader });

    // Assess
    expectError(anonymous, 401);
    expectError(signedIn, 403);
    expect(anonymous.text + signedIn.text).not.toContain(target.email);
  });

  it('gives a registered app the full user, and 404 for an address without an account', async () => {
    // Prepare
    const app = await registerApp();

    // Act
    const found = await api.call(routes.findUserByEmail, { query: { email: target.email.toUpperCase() }, as: app });
    const unknown = await api.call(routes.findUserByEmail, {
      query: { email: `nobody-${randomUUID().slice(0, 8)}@example.com` },
      as: app,
    });
    const wrongToken = await api.call(routes.findUserByEmail, {
      query: { email: target.email },
      as: { ...app, appToken: `${app.appToken}x` },
    });

    // Assess
    expectOk(found);
    expect(found.body.user).toMatchObject({ userId: target.userId, email: target.email, emailVerified: true });
    expectError(unknown, 404);
    expectError(wrongToken, 401);
  });

  it('gives a superuser the full user', async () => {
    // Prepare
    const admin = await signIn('admin-email');
    await makeSuperUser(admin);

    // Act
    const found = await api.call(routes.findUserByEmail, { query: { email: target.email }, as: admin });

    // Assess
    expectOk(found);
    expect(found.body.user).toMatchObject({ userId: target.userId, email: target.email });
  });

  it('names the email field when the address is malformed', async () => {
    // Prepare
    const admin = await signIn('admin-bad-email');
    await makeSuperUser(admin);

    // Act
    const bad = await api.call(routes.findUserByEmail, { query: { email: 'not-an-address' }, as: admin });

    // Assess
    expectError(bad, 400);
    expect(bad.body.fields).toEqual([expect.objectContaining({ in: 'query', field: 'email' })]);
  });
});

describe('signed-in routes without a session', () => {
  it.each([
    [describeRoute(routes.getSettings), () => api.call(routes.getSettings)],
    [
      describeRoute(routes.upsertSettings),
      () => api.call(routes.upsertSettings, { params: { id: 'some-user' }, body: { theme: 'dark' } }),
    ],
    [describeRoute(routes.updateProfile), () => api.call(routes.updateProfile, { body: { name: 'Nobody' } })],
    [
      describeRoute(routes.updateEmailPreferences),
      () =>
        api.call(routes.updateEmailPreferences, {
          body: { productUpdates: false, weeklyDigest: false, notificationEmails: false },
        }),
    ],
  ] as const)('%s answers 401', async (_route, callWithoutSession) => {
    // Act
    const answer = await callWithoutSession();

    // Assess
    expectError(answer, 401, 'UNAUTHORIZED');
  });
});

describe('settings', () => {
  let owner: SignedInUser;
  let other: SignedInUser;

  beforeAll(async () => {
    [owner, other] = await Promise.all([signIn('settings-owner'), signIn('settings-other')]);
  });

  it('starts empty', async () => {
    // Act
    const settings = await api.call(routes.getSettings, { as: owner });

    // Assess
    expectOk(settings);
    expect(settings.body).toEqual({ settings: {} });
  });

  it('merges each change into the stored settings', async () => {
    // Act
    const first = await api.call(routes.upsertSettings, { params: { id: owner.userId }, as: owner, body: { theme: 'dark' } });
    const second = await api.call(routes.upsertSettings, {
      params: { id: owner.userId },
      as: owner,
      body: { timezone: 'Europe/Berlin', activeOnlyByDefault: true },
    });
    const read = await api.call(routes.getSettings, { as: owner });

    // Assess
    expectOk(first);
    expect(first.body).toEqual({ settings: { theme: 'dark' } });
    const merged = { theme: 'dark', timezone: 'Europe/Berlin', activeOnlyByDefault: true };
    expect(second.body).toEqual({ settings: merged });
    expect(read.body).toEqual({ settings: merged });
  });

  it("refuses to change another user's settings, and leaves them as they were", async () => {
    // Act
    const refused = await api.call(routes.upsertSettings, { params: { id: owner.userId }, as: other, body: { theme: 'light' } });
    const ownerSettings = await api.call(routes.getSettings, { as: owner });

    // Assess
    expectError(refused, 403);
    expect(refused.body.message).toBe('You can only change your own settings.');
    expectOk(ownerSettings);
    expect(ownerSettings.body.settings.theme).toBe('dark');
  });

  it("lets a superuser change another user's settings, and says 404 for an unknown user", async () => {
    // Prepare
    const admin = await signIn('settings-admin');
    await makeSuperUser(admin);

    // Act
    const changed = await api.call(routes.upsertSettings, {
      params: { id: other.userId },
      as: admin,
      body: { defaultBoard: 'growth' },
    });
    const unknown = await api.call(routes.upsertSettings, {
      params: { id: 'no-such-user' },
      as: admin,
      body: { theme: 'light' },
    });
    const otherSettings = await api.call(routes.getSettings, { as: other });

    // Assess
    expectOk(changed);
    expect(changed.body).toEqual({ settings: { defaultBoard: 'growth' } });
    expect(otherSettings.body).toEqual({ settings: { defaultBoard: 'growth' } });
    expectError(unknown, 404);
  });

  it('names the bad field: a value out of range, or a field that does not exist', async () => {
    // Act
    const badValue = await api.call(routes.upsertSettings, {
      params: { id: owner.userId },
      as: owner,
      body: invalid({ theme: 'blue' }),
    });
    const unknownField = await api.call(routes.upsertSettings, {
      params: { id: owner.userId },
      as: owner,
      body: invalid({ fontSize: 12 }),
    });

    // Assess
    expectError(badValue, 400);
    expect(badValue.body.fields).toEqual([expect.objectContaining({ in: 'body', field: 'theme' })]);
    expectError(unknownField, 400);
    expect(unknownField.body.fields).toEqual([{ in: 'body', field: 'fontSize', message: 'Unknown field' }]);
  });
});

describe('email preferences', () => {
  it('replaces the preferences and returns them', async () => {
    // Prepare
    const account = await signIn('prefs');
    const preferences = { productUpdates: false, weeklyDigest: true, notificationEmails: false };

    // Act
    const updated = await api.call(routes.updateEmailPreferences, { as: account, body: preferences });

    // Assess
    expectOk(updated);
    expect(updated.body).toEqual({ emailPreferences: preferences });
    const { data: stored } = await getDb().entities.user.get({ userId: account.userId }).go();
    expect(stored?.emailPreferences).toEqual(preferences);
  });

  it('needs every preference, and names the missing one', async () => {
    // Prepare
    const account = await signIn('prefs-bad');

    // Act
    const partial = await api.call(routes.updateEmailPreferences, {
      as: account,
      body: invalid({ productUpdates: false, weeklyDigest: true }),
    });

    // Assess
    expectError(partial, 400);
    expect(partial.body.fields).toEqual([expect.objectContaining({ in: 'body', field: 'notificationEmails' })]);
  });
});

describe('profile', () => {
  it('changes name, website and image, and returns the own full user with the email', async () => {
    // Prepare
    const account = await signIn('profile');

    // Act
    const updated = await api.call(routes.updateProfile, {
      as: account,
      body: { name: '  Ada Lovelace ', websiteUrl: 'https://ada.example.com', imageUrl: 'https://img.example.com/ada.png' },
    });
    const publicView = await api.call(routes.getUser, { params: { id: account.userId } });

    // Assess
    expectOk(updated);
    expect(updated.body).toMatchObject({
      userId: account.userId,
      username: account.username,
      name: 'Ada Lovelace',
      websiteUrl: 'https://ada.example.com',
      imageUrl: 'https://img.example.com/ada.png',
      hasOwnImageUrl: true,
      email: account.email,
      emailVerified: true,
    });
    expect(publicView.body).toMatchObject({ name: 'Ada Lovelace', websiteUrl: 'https://ada.example.com' });
    expect(publicView.body).not.toHaveProperty('email');
  });

  it('clears website and image with null, keeping the rest', async () => {
    // Prepare
    const account = await signIn('profile-clear');
    await api.call(routes.updateProfile, {
      as: account,
      body: { name: 'Kept', websiteUrl: 'https://kept.example.com', imageUrl: 'https://img.example.com/x.png' },
    });

    // Act
    const cleared = await api.call(routes.updateProfile, { as: account, body: { websiteUrl: null, imageUrl: null } });

    // Assess
    expectOk(cleared);
    expect(cleared.body).toMatchObject({ name: 'Kept', websiteUrl: null, imageUrl: null, hasOwnImageUrl: false });
  });

  it('names the bad field: a website that is not a URL, or a field that does not exist', async () => {
    // Prepare
    const account = await signIn('profile-bad');

    // Act
    const badUrl = await api.call(routes.updateProfile, { as: account, body: { websiteUrl: 'not a url' } });
    const unknownField = await api.call(routes.updateProfile, { as: account, body: invalid({ email: 'x@example.com' }) });

    // Assess
    expectError(badUrl, 400);
    expect(badUrl.body.fields).toEqual([{ in: 'body', field: 'websiteUrl', message: 'Must be an http(s) URL' }]);
    expectError(unknownField, 400);
    expect(unknownField.body.fields).toEqual([{ in: 'body', field: 'email', message: 'Unknown field' }]);
  });
});

describe('changing the username', () => {
  const findId = (username: string) => api.call(routes.findIdByUsername, { params: { username } });

  it('takes a free name, and frees the old one for others', async () => {
    // Prepare
    const [account, latecomer] = await Promise.all([signIn('rename'), signIn('latecomer')]);
    const oldName = account.username;
    const newName = freshUsername('New');

    // Act
    const renamed = await api.call(routes.updateProfile, { as: account, body: { username: newName } });

    // Assess
    expectOk(renamed);
    expect(renamed.body).toMatchObject({ userId: account.userId, username: newName });
    const byNew = await findId(newName.toLowerCase());
    expect(byNew.body).toEqual({ userId: account.userId, username: newName });
    expectError(await findId(oldName), 404);
    const free = await api.call(routes.checkUsernameIsFree, { query: { username: oldName } });
    expect(free.body).toEqual({ username: oldName, isFree: true, reason: null });
    expect(await usernameClaim(oldName)).toBeNull();
    const takeOver = await api.call(routes.updateProfile, { as: latecomer, body: { username: oldName } });
    expectOk(takeOver);
    const byOld = await findId(oldName);
    expectOk(byOld);
    expect(byOld.body.userId).toBe(latecomer.userId);
  });

  it("refuses someone else's username (any letter case) with 409, changing nothing", async () => {
    // Prepare
    const [holder, account] = await Promise.all([signIn('holder'), signIn('wants')]);

    // Act
    const taken = await api.call(routes.updateProfile, {
      as: account,
      body: { username: holder.username.toUpperCase(), name: 'Not Saved' },
    });

    // Assess
    expectError(taken, 409);
    expect(taken.body).toMatchObject({ code: 'CONFLICT', message: 'That username is taken' });
    const me = await api.call(routes.getUser, { params: { id: account.userId } });
    expect(me.body).toMatchObject({ username: account.username, name: '' });
    expect((await usernameClaim(holder.username))?.userId).toBe(holder.userId);
  });

  it('refuses a reserved username with 400 and the reason', async () => {
    // Prepare
    const account = await signIn('reserved');

    // Act
    const reserved = await api.call(routes.updateProfile, { as: account, body: { username: 'Admin' } });

    // Assess
    expectError(reserved, 400);
    expect(reserved.body.message).toBe("'Admin' is reserved");
    expect(reserved.body.fields).toEqual([{ in: 'body', field: 'username', message: "'Admin' is reserved" }]);
  });

  it('refuses a malformed username, naming the field', async () => {
    // Prepare
    const account = await signIn('malformed');

    // Act
    const malformed = await api.call(routes.updateProfile, { as: account, body: { username: 'no spaces' } });

    // Assess
    expectError(malformed, 400);
    expect(malformed.body.fields).toEqual([
      { in: 'body', field: 'username', message: 'Use letters, digits and underscores only' },
    ]);
  });

  it('changes only the letter case of its own username', async () => {
    // Prepare
    const account = await signIn('casechange');
    const upper = account.username.toUpperCase();

    // Act
    const changed = await api.call(routes.updateProfile, { as: account, body: { username: upper } });

    // Assess
    expectOk(changed);
    expect(changed.body).toMatchObject({ userId: account.userId, username: upper });
    expect((await api.call(routes.getUsername, { params: { userId: account.userId } })).body).toEqual({
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
      [first, second].map((account) => api.call(routes.updateProfile, { as: account, body: { username: contested } })),
    );

    // Assess
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    const winnerIndex = results.findIndex((result) => result.status === 200);
    const winner = [first, second][winnerIndex] as SignedInUser;
    const loser = [first, second][1 - winnerIndex] as SignedInUser;
    expect(results[1 - winnerIndex]?.body).toMatchObject({ message: 'That username is taken' });
    const resolved = await findId(contested);
    expect(resolved.body).toEqual({ userId: winner.userId, username: contested });
    // The loser keeps the old name and its claim.
    expect((await api.call(routes.getUsername, { params: { userId: loser.userId } })).body).toMatchObject({
      username: loser.username,
    });
    expect((await usernameClaim(loser.username))?.userId).toBe(loser.userId);
    expect(await usernameClaim(winner.username)).toBeNull();
  });
});

describe('privacy', () => {
  it("never answers with another user's email (only the app/superuser lookup by email does)", () => {
    // Assess
    expect(answers.length).toBeGreaterThan(20);
    for (const answer of answers) {
      if (answer.isEmailLookup) continue;
      for (const email of emails) {
        if (email !== answer.callerEmail) expect(answer.text, answer.path).not.toContain(email);
      }
    }
  });
});
