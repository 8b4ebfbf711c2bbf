/**
 * The yardstick for the cold-start budget: the smallest useful DynamoDB Lambda, the document
 * client and one GetItem, bundled with the handlers' own esbuild options. Its import time is
 * what any handler of ours costs at least, so handler import times are judged as a ratio to it,
 * measured in the same run, which cancels the machine's speed and load.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

// Module scope, as AWS recommends: one client per instance, reused by every invocation.
const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event: { key?: string }): Promise<unknown> => {
  const output = await client.send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: event.key ?? 'probe', sk: 'probe' } }),
  );
  return output.Item ?? null;
};
