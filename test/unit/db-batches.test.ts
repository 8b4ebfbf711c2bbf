import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BatchIncomplete, writeBatch } from '../../functions/lib/db/batches';
import { createDb } from '../../functions/lib/db/service';
import { getUsers } from '../../functions/lib/db/users';
import { endAllSessions } from '../../functions/lib/sessions';

const TABLE = 'batches-unit';
const dynamo = mockClient(DynamoDBDocumentClient);
// Unit files share their modules (one thread, no isolation): leave the real client behind.
afterAll(() => dynamo.restore());
const db = createDb(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), TABLE);

const sessionKey = (tokenHash: string) => ({ pk: `$toppubs#tokenhash_${tokenHash}`, sk: '$session_1' });
const sessionItem = (tokenHash: string) => ({
  ...sessionKey(tokenHash),
  gsi1pk: '$toppubs#userid_u-1',
  gsi1sk: `$session_1#createdat_2026-03-01t12:00:0${tokenHash.length}.000z`,
  tokenHash,
  sessionId: `s-${tokenHash}`,
  userId: 'u-1',
  createdAt: '2026-03-01T12:00:00.000Z',
  lastUsedAt: '2026-03-01T12:00:00.000Z',
  userAgent: '',
  expiresAt: 1_900_000_000,
  __edb_e__: 'session',
  __edb_v__: '1',
});
const userKey = (userId: string) => ({ pk: `$toppubs#userid_${userId}`, sk: '$user_1' });
const userItem = (userId: string) => ({
  ...userKey(userId),
  userId,
  username: `name_${userId}`,
  createdAt: '2026-03-01T12:00:00.000Z',
  lastLoginAt: '2026-03-01T12:00:00.000Z',
  __edb_e__: 'user',
  __edb_v__: '1',
});
const deleteRequest = (tokenHash: string) => ({ DeleteRequest: { Key: sessionKey(tokenHash) } });

afterEach(() => {
  dynamo.reset();
});

describe('batch writes', () => {
  it('send again exactly what DynamoDB left unprocessed, until everything is written', async () => {
    // Prepare: three sessions of one user; the first BatchWriteItem leaves one of them unprocessed.
    dynamo.on(QueryCommand).resolves({ Items: ['aaa', 'bbb', 'ccc'].map(sessionItem) });
    dynamo
      .on(BatchWriteCommand)
      .resolvesOnce({ UnprocessedItems: { [TABLE]: [deleteRequest('bbb')] } })
      .resolvesOnce({ UnprocessedItems: {} });

    // Act
    const ended = await endAllSessions(db, 'u-1');

    // Assess
    expect(ended).toBe(3);
    const calls = dynamo.commandCalls(BatchWriteCommand);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.args[0].input).toEqual({
      RequestItems: { [TABLE]: ['aaa', 'bbb', 'ccc'].map(deleteRequest) },
    });
    expect(calls[1]?.args[0].input).toEqual({ RequestItems: { [TABLE]: [deleteRequest('bbb')] } });
  });

  it('give up after the last attempt, saying how many items are still unwritten', async () => {
    // Prepare: DynamoDB never takes the item.
    dynamo.on(BatchWriteCommand).resolves({ UnprocessedItems: { [TABLE]: [deleteRequest('ddd')] } });

    // Act
    const outcome = writeBatch({
      items: [{ tokenHash: 'ddd' }],
      send: (keys) => db.entities.session.delete(keys).go(),
      keyOf: (key) => key.tokenHash,
      what: 'sessions',
      options: { maxAttempts: 3, baseDelayMs: 1 },
    });

    // Assess
    await expect(outcome).rejects.toThrow(new BatchIncomplete('1 sessions still unprocessed after 3 attempts'));
    expect(dynamo.commandCalls(BatchWriteCommand)).toHaveLength(3);
  });
});

describe('batch reads of users', () => {
  it('are strongly consistent, ask again for unprocessed keys, and keep the order asked, each user once', async () => {
    // Prepare: the first BatchGetItem answers one user and leaves the other unprocessed.
    dynamo
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { [TABLE]: [userItem('u-2')] },
        UnprocessedKeys: { [TABLE]: { Keys: [userKey('u-9')], ConsistentRead: true } },
      })
      .resolvesOnce({ Responses: { [TABLE]: [userItem('u-9')] }, UnprocessedKeys: {} });

    // Act
    const users = await getUsers(db, { userIds: ['u-9', 'u-2', 'u-9', 'u-404'] });

    // Assess
    expect(users.map((user) => user.userId)).toEqual(['u-9', 'u-2']);
    const calls = dynamo.commandCalls(BatchGetCommand);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.args[0].input).toEqual({
      RequestItems: { [TABLE]: { Keys: [userKey('u-9'), userKey('u-2'), userKey('u-404')], ConsistentRead: true } },
    });
    expect(calls[1]?.args[0].input).toEqual({ RequestItems: { [TABLE]: { Keys: [userKey('u-9')], ConsistentRead: true } } });
  });
});
