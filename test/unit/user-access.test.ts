import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../functions/lib/db/service';
import {
  getUser,
  getUserByEmail,
  getUserByUsername,
  requireUser,
  requireUserOfSession,
  setEmailPreferences,
} from '../../functions/lib/db/users';
import { DEFAULT_EMAIL_PREFERENCES } from '../../shared/schemas/account';
import { createTestTable, mockedTableForBlock } from '../support/dynamo';

let db: Db;
const STAMP = '2026-03-01T12:00:00.000Z';

beforeAll(async () => {
  ({ db } = await createTestTable());
  await db.transaction
    .write(({ user, identityClaim }) => [
      user
        .create({ userId: 'u-ann', username: 'Ann_Reads', email: 'ann@example.com', createdAt: STAMP, lastLoginAt: STAMP })
        .commit(),
      identityClaim.create({ kind: 'username', value: 'ann_reads', userId: 'u-ann', createdAt: STAMP }).commit(),
      identityClaim.create({ kind: 'email', value: 'ann@example.com', userId: 'u-ann', createdAt: STAMP }).commit(),
    ])
    .go();
});

describe('reading a user', () => {
  it('finds a user by id, by username and by email in any letter case', async () => {
    // Act
    const byId = await getUser(db, { userId: 'u-ann' });
    const byUsername = await getUserByUsername(db, { username: ' ANN_reads ' });
    const byEmail = await getUserByEmail(db, { email: 'Ann@Example.com' });

    // Assess
    expect([byId?.userId, byUsername?.userId, byEmail?.userId]).toEqual(['u-ann', 'u-ann', 'u-ann']);
    expect(await getUserByUsername(db, { username: '   ' })).toBeNull();
  });

  it('answers 404 naming the id for an unknown user, and 401 when a session outlived its account', async () => {
    // Act: both calls in flight at once; each rejection is caught where it is made, so neither
    // is left unhandled while the other is awaited.
    const [unknown, vanished] = await Promise.allSettled([
      requireUser(db, { userId: 'u-nobody' }),
      requireUserOfSession(db, { userId: 'u-nobody' }),
    ]);

    // Assess
    expect(unknown).toMatchObject({
      status: 'rejected',
      reason: { statusCode: 404, message: "There is no user with the id 'u-nobody'." },
    });
    expect(vanished).toMatchObject({ status: 'rejected', reason: { statusCode: 401, code: 'UNAUTHORIZED' } });
  });

  it('replaces email preferences of an existing account only', async () => {
    // Act
    const saved = await setEmailPreferences(db, {
      userId: 'u-ann',
      emailPreferences: { ...DEFAULT_EMAIL_PREFERENCES, weeklyDigest: false },
    });
    const gone = await setEmailPreferences(db, { userId: 'u-gone', emailPreferences: DEFAULT_EMAIL_PREFERENCES });

    // Assess
    expect(saved).toBe(true);
    expect(gone).toBe(false);
    expect((await getUser(db, { userId: 'u-ann' }))?.emailPreferences).toMatchObject({ weeklyDigest: false });
    expect(await getUser(db, { userId: 'u-gone' })).toBeNull();
  });
});

describe('the consistency rule', () => {
  const { db: mockedDb, documentClient: dynamo } = mockedTableForBlock('users-unit');

  it('reads every user item strongly consistent, through a claim too', async () => {
    // Prepare
    dynamo().on(GetCommand).resolves({});

    // Act
    await getUser(mockedDb, { userId: 'u-1' });
    await getUserByUsername(mockedDb, { username: 'Someone' });

    // Assess
    expect(
      dynamo()
        .commandCalls(GetCommand)
        .map((call) => call.args[0].input),
    ).toEqual([
      { TableName: 'users-unit', Key: { pk: '$toppubs#userid_u-1', sk: '$user_1' }, ConsistentRead: true },
      {
        TableName: 'users-unit',
        Key: { pk: '$toppubs#kind_username#value_someone', sk: '$identityclaim_1' },
        ConsistentRead: true,
      },
    ]);
  });
});
