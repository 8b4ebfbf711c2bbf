import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../functions/lib/app-auth';
import type { Db } from '../../functions/lib/db/service';
import {
  defineTokenPurpose,
  issueToken,
  readToken,
  spendToken,
  type TransactionEntities,
} from '../../functions/lib/one-time-tokens';
import { createTestTable, mockedTableForBlock } from '../support/dynamo';

let db: Db;
// A whole second, so the second-based expiry boundary sits exactly one lifetime later.
const ISSUED_AT = new Date('2026-03-01T12:00:00.000Z');
const at = (offsetMs: number) => new Date(ISSUED_AT.getTime() + offsetMs);

const INVITE = defineTokenPurpose<{ transferId: string; email: string }>('test-invite', { lifetimeSeconds: 300 });
const DOWNLOAD = defineTokenPurpose<{ transferId: string; email: string }>('test-download', { lifetimeSeconds: 300 });
const payload = { transferId: 't-1', email: 'guest@example.com' };

beforeAll(async () => {
  ({ db } = await createTestTable());
});

describe('issuing a one-time token', () => {
  it('hands out 256 random bits once and stores only their SHA-256, under the purpose, with the payload and expiry', async () => {
    // Act
    const issued = await issueToken(db, INVITE, { payload, now: ISSUED_AT });

    // Assess
    expect(Buffer.from(issued.token, 'base64url')).toHaveLength(32);
    expect(issued.expiresAt).toBe(ISSUED_AT.getTime() / 1000 + 300);
    const { data: stored } = await db.entities.oneTimeToken
      .get({ purpose: 'test-invite', tokenHash: hashToken(issued.token) })
      .go();
    expect(stored).toMatchObject({
      payload: JSON.stringify(payload),
      expiresAt: issued.expiresAt,
      createdAt: ISSUED_AT.toISOString(),
    });
    expect(stored?.usedAt).toBeUndefined();
    expect(JSON.stringify(stored)).not.toContain(issued.token);
  });

  it('refuses a purpose name that could not be part of a key', () => {
    // Assess
    expect(() => defineTokenPurpose('Invite Links', { lifetimeSeconds: 60 })).toThrow("Token purpose 'Invite Links'");
  });
});

describe('spending a one-time token', () => {
  it('answers the payload once, then says it was used', async () => {
    // Prepare
    const { token } = await issueToken(db, INVITE, { payload, now: ISSUED_AT });

    // Act
    const first = await spendToken(db, INVITE, token, { now: at(1_000) });
    const second = await spendToken(db, INVITE, token, { now: at(2_000) });

    // Assess
    expect(first).toEqual({ spent: true, payload });
    expect(second).toEqual({ spent: false, failure: 'used' });
    expect((await readToken(db, INVITE, token))?.usedAt).toBe(at(1_000).toISOString());
  });

  it('answers the payload of a token issued when payloads were stored as a map', async () => {
    // Prepare
    await db.entities.oneTimeToken
      .create({
        purpose: 'test-invite',
        tokenHash: hashToken('token-from-before'),
        payload,
        createdAt: ISSUED_AT.toISOString(),
        expiresAt: ISSUED_AT.getTime() / 1000 + 300,
      })
      .go();

    // Act
    const outcome = await spendToken(db, INVITE, 'token-from-before', { now: at(1_000) });

    // Assess
    expect(outcome).toEqual({ spent: true, payload });
  });

  it('works until the last millisecond of its lifetime and not at its end', async () => {
    // Prepare
    const lastMoment = await issueToken(db, INVITE, { payload, now: ISSUED_AT });
    const atDeadline = await issueToken(db, INVITE, { payload, now: ISSUED_AT });

    // Act
    const spent = await spendToken(db, INVITE, lastMoment.token, { now: at(300_000 - 1) });
    const expired = await spendToken(db, INVITE, atDeadline.token, { now: at(300_000) });

    // Assess
    expect(spent.spent).toBe(true);
    expect(expired).toEqual({ spent: false, failure: 'expired' });
  });

  it('does not know a tampered token, nor a token of another purpose', async () => {
    // Prepare
    const { token } = await issueToken(db, INVITE, { payload, now: ISSUED_AT });
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;

    // Act
    const unknown = await spendToken(db, INVITE, tampered, { now: at(1_000) });
    const otherPurpose = await spendToken(db, DOWNLOAD, token, { now: at(1_000) });

    // Assess
    expect(unknown).toEqual({ spent: false, failure: 'unknown' });
    expect(otherPurpose).toEqual({ spent: false, failure: 'unknown' });
    expect((await spendToken(db, INVITE, token, { now: at(2_000) })).spent).toBe(true);
  });

  it('lets exactly one of several concurrent spends win; the others are told it was used', async () => {
    // Prepare
    const { token } = await issueToken(db, INVITE, { payload, now: ISSUED_AT });

    // Act
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => spendToken(db, INVITE, token, { now: at(1_000) })));

    // Assess
    expect(outcomes.filter((outcome) => outcome.spent)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.spent)).toEqual(Array(4).fill({ spent: false, failure: 'used' }));
  });

  it("leaves the token unspent when the caller's check refuses it", async () => {
    // Prepare
    const { token } = await issueToken(db, INVITE, { payload, now: ISSUED_AT });
    const refusal = new Error('not for this guest');

    // Act
    const refused = spendToken(db, INVITE, token, {
      now: at(1_000),
      check: () => {
        throw refusal;
      },
    });

    // Assess
    await expect(refused).rejects.toBe(refusal);
    expect((await spendToken(db, INVITE, token, { now: at(2_000) })).spent).toBe(true);
  });

  it('spends together with other writes in one transaction, or not at all when one of them is refused', async () => {
    // Prepare: a user whose email only the second spend's condition expects.
    await db.entities.user
      .create({ userId: 'tx-user', username: 'txuser', email: 'new@example.com', createdAt: 'x', lastLoginAt: 'x' })
      .go();
    const { token } = await issueToken(db, INVITE, { payload, now: ISSUED_AT });
    const verifyIfEmailIs = (expected: string) => ({
      now: at(1_000),
      together: (entities: TransactionEntities) => [
        entities.user
          .patch({ userId: 'tx-user' })
          .set({ emailVerified: true })
          .where(({ email }, { eq }) => eq(email, expected))
          .commit(),
      ],
    });

    // Act
    const refused = await spendToken(db, INVITE, token, verifyIfEmailIs('old@example.com'));
    const unspentAfterRefusal = (await readToken(db, INVITE, token))?.usedAt;
    const spent = await spendToken(db, INVITE, token, verifyIfEmailIs('new@example.com'));

    // Assess
    expect(refused).toEqual({ spent: false, failure: 'refused' });
    expect(unspentAfterRefusal).toBeUndefined();
    expect(spent).toEqual({ spent: true, payload });
    const { data: user } = await db.entities.user.get({ userId: 'tx-user' }).go();
    expect(user?.emailVerified).toBe(true);
  });
});

describe('spending when DynamoDB fails', () => {
  const { db: mockedDb, documentClient: dynamo } = mockedTableForBlock('tokens-unit');

  it('costs one consistent read and one conditional write, and lets a throttled write fail rather than call the token used', async () => {
    // Prepare
    const tokenHash = hashToken('raw-token-value');
    const key = { pk: `$toppubs#purpose_test-invite#tokenhash_${tokenHash}`, sk: '$onetimetoken_1' };
    dynamo()
      .on(GetCommand)
      .resolves({
        Item: {
          ...key,
          purpose: 'test-invite',
          tokenHash,
          payload,
          createdAt: ISSUED_AT.toISOString(),
          expiresAt: ISSUED_AT.getTime() / 1000 + 300,
          __edb_e__: 'oneTimeToken',
          __edb_v__: '1',
        },
      });
    dynamo()
      .on(UpdateCommand)
      .rejects(new ProvisionedThroughputExceededException({ message: 'Slow down', $metadata: {} }));

    // Act
    const outcome = spendToken(mockedDb, INVITE, 'raw-token-value', { now: at(1_000) });

    // Assess
    await expect(outcome).rejects.toMatchObject({ cause: { name: 'ProvisionedThroughputExceededException' } });
    expect(
      dynamo()
        .commandCalls(GetCommand)
        .map((call) => call.args[0].input),
    ).toEqual([{ TableName: 'tokens-unit', Key: key, ConsistentRead: true }]);
    const updates = dynamo().commandCalls(UpdateCommand);
    expect(updates).toHaveLength(1);
    expect(updates[0]?.args[0].input).toMatchObject({
      TableName: 'tokens-unit',
      Key: key,
      ConditionExpression: expect.stringContaining('attribute_not_exists(#usedAt) AND #expiresAt > :expiresAt'),
      ExpressionAttributeValues: expect.objectContaining({
        ':expiresAt0': ISSUED_AT.getTime() / 1000 + 1,
        ':usedAt_u0': at(1_000).toISOString(),
      }),
    });
  });
});
