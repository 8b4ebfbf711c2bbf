import type * as ElectroDB from 'electrodb';
import documentCommands from './electrodb-document-commands.cjs';

/**
 * ElectroDB itself, in the chunk a bundle loads on its first call (see electrodb.ts): its entity
 * and transaction modules, and the ten DynamoDB document commands it sends, which the facade
 * hands over.
 */

/** The parts of ElectroDB our code uses (service.ts and the entities). */
export type ElectroDbInUse = Pick<typeof ElectroDB, 'Entity' | 'createGetTransaction' | 'createWriteTransaction'>;

/** ElectroDB, sending these commands (BatchGetCommand, ..., UpdateCommand, by name). */
export function electrodbWith(commands: Readonly<Record<string, unknown>>): ElectroDbInUse {
  Object.assign(documentCommands as Record<string, unknown>, commands);
  // Its entity and transaction modules, not its index: the index also loads the Service (its
  // collections, which we do not use), 19 KB more to compile. Required, as ElectroDB is
  // CommonJS; esbuild resolves the requires into this chunk, nothing is read from node_modules.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Entity } = require('electrodb/src/entity') as Pick<typeof ElectroDB, 'Entity'>;
  const transactions = require('electrodb/src/transaction') as Pick<
    typeof ElectroDB,
    'createGetTransaction' | 'createWriteTransaction'
  >;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return {
    Entity,
    createGetTransaction: transactions.createGetTransaction,
    createWriteTransaction: transactions.createWriteTransaction,
  };
}
