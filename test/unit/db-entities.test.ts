import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDb, type Entities } from '../../functions/lib/db/service';

/**
 * Lambda bundles leave out ElectroDB's model validator (infra/build/shims/jsonschema-model-check.cjs):
 * this is where each entity's model meets the real one, so a malformed model fails here, before
 * it ships, rather than never.
 */
describe('table entities', () => {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));

  it.each(Object.keys(createDb(client, 'probe').entities) as (keyof Entities)[])(
    "%s: its model passes ElectroDB's own validation",
    (name) => {
      // Prepare
      const { entities } = createDb(client, 'probe');

      // Act
      const entity = entities[name];

      // Assess
      expect(entity.schema.attributes).not.toEqual({});
    },
  );

  it('refuses a malformed model, which is what the check above relies on', async () => {
    // Prepare
    const { Entity } = await import('electrodb');

    // Act
    const build = () =>
      new Entity(
        // An attribute of a type ElectroDB does not know.
        { model: { entity: 'probe', version: '1', service: 'probe' }, attributes: { a: { type: 'date' } }, indexes: {} } as never,
        { client, table: 'probe' },
      );

    // Assess
    expect(build).toThrow(/Invalid/i);
  });
});
