import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type AwsClientStub, mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { createDocumentClient } from '../../functions/lib/db/client';
import { createDb, type Db } from '../../functions/lib/db/service';
import { ensureTable } from '../../infra/local/dynamodb-local';

export interface TestTable {
  db: Db;
  tableName: string;
  endpoint: string;
}

/** A fresh, empty table in the run's DynamoDB Local, so suites never see each other's data. */
export async function createTestTable(): Promise<TestTable> {
  const endpoint = inject('dynamoEndpoint');
  const tableName = `test-${randomUUID().slice(0, 8)}`;
  await ensureTable(endpoint, tableName);
  const client = createDocumentClient({ endpoint, region: 'us-east-1' });
  return { db: createDb(client, tableName), tableName, endpoint };
}

/**
 * For one describe block of a file whose other blocks use DynamoDB Local: a Db over a mocked
 * document client, and the mock to program and inspect. Every document client is mocked from
 * the block's first test (not when the file loads), reset after each test, restored after the block.
 */
export function mockedTableForBlock(tableName: string): { db: Db; documentClient: () => AwsClientStub<DynamoDBDocumentClient> } {
  let stub: AwsClientStub<DynamoDBDocumentClient> | undefined;
  beforeAll(() => {
    stub = mockClient(DynamoDBDocumentClient);
  });
  afterEach(() => {
    stub?.reset();
  });
  afterAll(() => {
    stub?.restore();
  });
  return {
    db: createDb(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), tableName),
    documentClient: () => {
      if (!stub) throw new Error('mockedTableForBlock: the mock exists only while the block runs');
      return stub;
    },
  };
}
