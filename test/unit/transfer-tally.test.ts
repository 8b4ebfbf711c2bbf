import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../functions/lib/db/service';
import { readCurrentTally, tallyUpdates, UNVERSIONED_TALLY_MAX_AGE_MS } from '../../functions/transfers/lib/tally';

const TABLE = 'tally-unit';
const dynamo = mockClient(DynamoDBDocumentClient);
// Unit files share their modules (one thread, no isolation): leave the real client behind.
afterAll(() => dynamo.restore());
const db = createDb(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), TABLE);

const tallyKey = (transferId: string) => ({ pk: `$toppubs#transferId_${transferId}`, sk: '$transfertally_1' });
const storedTally = (transferId: string, changes: number | undefined, likes: number) => ({
  Item: {
    ...tallyKey(transferId),
    transferId,
    like_f1: likes,
    dislike_f1: 1,
    like_f2: 0,
    ...(changes === undefined ? {} : { changes }),
  },
});

describe("a package's like and dislike counts", () => {
  afterEach(() => {
    dynamo.reset();
  });

  it('reads nothing for a package nobody has voted on', async () => {
    // Act
    const tally = await readCurrentTally(db, { transferId: 't-no-votes', voteChanges: 0 });

    // Assess
    expect(tally.counts.size).toBe(0);
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('reads the tally once per vote change, however many viewers open the package', async () => {
    // Prepare
    dynamo
      .on(GetCommand)
      .resolvesOnce(storedTally('t-votes', 3, 2))
      .resolvesOnce(storedTally('t-votes', 4, 3));

    // Act
    const first = await readCurrentTally(db, { transferId: 't-votes', voteChanges: 3 });
    const second = await readCurrentTally(db, { transferId: 't-votes', voteChanges: 3 });
    const afterAnotherVote = await readCurrentTally(db, { transferId: 't-votes', voteChanges: 4 });

    // Assess
    expect(first.counts.get('f1')).toEqual({ likes: 2, dislikes: 1 });
    expect(second).toBe(first);
    expect(afterAnotherVote.counts.get('f1')).toEqual({ likes: 3, dislikes: 1 });
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(2);
    expect(dynamo.commandCalls(GetCommand)[0]?.args[0].input).toEqual({ TableName: TABLE, Key: tallyKey('t-votes') });
  });

  it('reads again while a read lags behind the transfer (an eventually consistent read)', async () => {
    // Prepare
    dynamo
      .on(GetCommand)
      .resolvesOnce(storedTally('t-lag', 4, 2))
      .resolvesOnce(storedTally('t-lag', 5, 3));

    // Act
    const behind = await readCurrentTally(db, { transferId: 't-lag', voteChanges: 5 });
    const caughtUp = await readCurrentTally(db, { transferId: 't-lag', voteChanges: 5 });

    // Assess
    expect(behind.counts.get('f1')?.likes).toBe(2);
    expect(caughtUp.counts.get('f1')?.likes).toBe(3);
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(2);
  });

  it('keeps the tally of a transfer sent before vote changes were counted for two seconds', async () => {
    // Prepare
    dynamo
      .on(GetCommand)
      .resolvesOnce(storedTally('t-old', undefined, 2))
      .resolvesOnce(storedTally('t-old', undefined, 5));
    const readAt = 1_800_000_000_000;

    // Act
    const first = await readCurrentTally(db, { transferId: 't-old' }, readAt);
    const kept = await readCurrentTally(db, { transferId: 't-old' }, readAt + UNVERSIONED_TALLY_MAX_AGE_MS - 1);
    const reread = await readCurrentTally(db, { transferId: 't-old' }, readAt + UNVERSIONED_TALLY_MAX_AGE_MS);

    // Assess
    expect(kept).toBe(first);
    expect(reread.counts.get('f1')?.likes).toBe(5);
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(2);
  });

  it("moves a file's counts, the tally's changes and the transfer's vote changes in one transaction", () => {
    // Act
    const updates = tallyUpdates(db, 't-1', 'f1', { likes: 1, dislikes: -1 });

    // Assess
    expect(updates).toEqual([
      {
        Update: {
          TableName: TABLE,
          Key: tallyKey('t-1'),
          UpdateExpression: 'ADD #likes :likes, #dislikes :dislikes, #changes :one',
          ExpressionAttributeNames: { '#likes': 'like_f1', '#dislikes': 'dislike_f1', '#changes': 'changes' },
          ExpressionAttributeValues: { ':likes': 1, ':dislikes': -1, ':one': 1 },
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Update: {
          TableName: TABLE,
          Key: { pk: '$toppubs#transferId_t-1', sk: '$transfer_1' },
          UpdateExpression: 'ADD #voteChanges :one',
          ExpressionAttributeNames: { '#voteChanges': 'voteChanges' },
          ExpressionAttributeValues: { ':one': 1 },
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    ]);
  });
});
