import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { failedConditions, isConditionalCheckFailed } from '../../functions/lib/db/errors';
import { createDb } from '../../functions/lib/db/service';

const TABLE = 'errors-unit';
const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const dynamo = mockClient(DynamoDBDocumentClient);
// Unit files share their modules (one thread, no isolation): leave the real client behind.
afterAll(() => dynamo.restore());
const db = createDb(documentClient, TABLE);

const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

const blockOf = (blockedUserId: string) => ({ userId: 'u-1', blockedUserId, createdAt: '2026-03-01T12:00:00.000Z' });

afterEach(() => {
  dynamo.reset();
});

describe('a single write refused by its condition', () => {
  it('is recognised through the error ElectroDB wraps around it, and the write asked for exactly that condition', async () => {
    // Prepare
    dynamo.on(PutCommand).rejects(conditionFailed());

    // Act
    const error = await db.entities.block
      .create(blockOf('u-2'))
      .go()
      .catch((caught: unknown) => caught);

    // Assess
    expect(isConditionalCheckFailed(error)).toBe(true);
    expect((error as Error).name).toBe('ElectroError');
    const calls = dynamo.commandCalls(PutCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
      TableName: TABLE,
      Item: {
        pk: '$toppubs#userid_u-1',
        sk: '$block_1#blockeduserid_u-2',
        userId: 'u-1',
        blockedUserId: 'u-2',
        createdAt: '2026-03-01T12:00:00.000Z',
        __edb_e__: 'block',
        __edb_v__: '1',
      },
      ConditionExpression: 'attribute_not_exists(#pk) AND attribute_not_exists(#sk)',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
    });
  });

  it('is not confused with throttling or any other failure', async () => {
    // Prepare
    dynamo.on(PutCommand).rejects(new ProvisionedThroughputExceededException({ message: 'Slow down', $metadata: {} }));

    // Act
    const error = await db.entities.block
      .create(blockOf('u-3'))
      .go()
      .catch((caught: unknown) => caught);

    // Assess
    expect(isConditionalCheckFailed(error)).toBe(false);
    expect(isConditionalCheckFailed(new Error('ConditionalCheckFailed mentioned in a message only'))).toBe(false);
    expect(isConditionalCheckFailed(undefined)).toBe(false);
  });
});

describe('a transaction cancelled by DynamoDB', () => {
  it('counts as a refused condition only when a cancellation reason says so', () => {
    // Assess
    expect(isConditionalCheckFailed(cancelled('None', 'ConditionalCheckFailed'))).toBe(true);
    expect(isConditionalCheckFailed(cancelled('None', 'TransactionConflict'))).toBe(false);
    expect(isConditionalCheckFailed(cancelled('ThrottlingError', 'None'))).toBe(false);
  });

  it('resolves through ElectroDB as cancelled, and failedConditions names the item whose condition failed', async () => {
    // Prepare
    dynamo
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('None', 'ConditionalCheckFailed'))
      .rejectsOnce(cancelled('TransactionConflict', 'None'));
    const write = () =>
      db.transaction.write(({ block }) => [block.create(blockOf('u-4')).commit(), block.create(blockOf('u-5')).commit()]).go();

    // Act
    const refused = await write();
    const collided = await write();

    // Assess
    expect(refused.canceled).toBe(true);
    expect(failedConditions(refused)).toEqual([1]);
    expect(collided.canceled).toBe(true);
    expect(failedConditions(collided)).toEqual([]);
    const calls = dynamo.commandCalls(TransactWriteCommand);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.args[0].input.TransactItems?.map((item) => item.Put?.Item?.sk)).toEqual([
      '$block_1#blockeduserid_u-4',
      '$block_1#blockeduserid_u-5',
    ]);
  });

  it('has no failed condition when it went through', () => {
    // Assess
    expect(failedConditions({ canceled: false, data: [{ rejected: false, code: 'None' }] })).toEqual([]);
  });
});
