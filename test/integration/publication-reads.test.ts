import type { BatchGetCommandInput, BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../functions/lib/db/client';
import { createDb } from '../../functions/lib/db/service';
import { readPublications } from '../../functions/ranking/lib/publication-reads';
import { generateSeedData } from '../../infra/local/seed/generate-publications';
import { seedTable } from '../../infra/local/seed/seed-table';
import { createTestTable, type TestTable } from '../support/dynamo';

/**
 * A Db on the same table whose BatchGetItems leave the last `left` keys of their first
 * `times` requests unprocessed, as DynamoDB does under load: those keys are not asked for, and
 * come back as UnprocessedKeys.
 */
function dbLeavingKeysUnprocessed(table: TestTable, options: { left: number; times: number }) {
  const client = createDocumentClient({ endpoint: table.endpoint, region: 'us-east-1' });
  const requests: number[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'BatchGetItemCommand') return next(args);
      const input = args.input as BatchGetCommandInput;
      const [tableName, request] = Object.entries(input.RequestItems ?? {})[0] ?? [];
      const keys = request?.Keys ?? [];
      requests.push(keys.length);
      if (!tableName || !request || requests.length > options.times) return next(args);
      const kept = keys.slice(0, Math.max(0, keys.length - options.left));
      const unprocessed = { [tableName]: { ...request, Keys: keys.slice(kept.length) } };
      // Every key left: DynamoDB answers nothing read (a request may not ask for no keys).
      if (kept.length === 0) {
        const output: BatchGetCommandOutput = { Responses: { [tableName]: [] }, UnprocessedKeys: unprocessed, $metadata: {} };
        return { output } as Awaited<ReturnType<typeof next>>;
      }
      const result = await next({ ...args, input: { ...input, RequestItems: { [tableName]: { ...request, Keys: kept } } } });
      (result.output as BatchGetCommandOutput).UnprocessedKeys = unprocessed;
      return result;
    },
    { step: 'initialize', name: 'leaveKeysUnprocessed' },
  );
  return { db: createDb(client, table.tableName), requests };
}

describe('readPublications', () => {
  let table: TestTable;
  let slugs: string[];

  beforeAll(async () => {
    table = await createTestTable();
    const data = generateSeedData({ today: '2026-12-07', publications: 12, seed: 3 });
    await seedTable(table.db, { publications: data.publications, histories: [] });
    slugs = data.publications.map((publication) => publication.slug);
  });

  it('asks again for the keys DynamoDB leaves unprocessed, so no publication drops out', async () => {
    // Prepare: the first two requests each leave 5 keys unprocessed.
    const { db, requests } = dbLeavingKeysUnprocessed(table, { left: 5, times: 2 });

    // Act
    const publications = await readPublications(db, [...slugs, 'never-stored']);

    // Assess: every stored one, in three requests for 13, 5, then 5 keys; the unknown left out.
    expect([...publications.keys()].sort()).toEqual([...slugs].sort());
    expect(requests).toEqual([13, 5, 5]);
  });

  it('fails rather than answer a short list when the keys are never read', async () => {
    // Prepare: every request leaves one key unprocessed.
    const { db } = dbLeavingKeysUnprocessed(table, { left: 1, times: Number.POSITIVE_INFINITY });

    // Act & Assess
    await expect(readPublications(db, slugs)).rejects.toThrow(/publications still unread/);
  });
});
