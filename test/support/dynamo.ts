import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
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
