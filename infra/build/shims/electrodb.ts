import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type * as ElectroDB from 'electrodb';
import documentCommands from './electrodb-document-commands.cjs';

/**
 * What `electrodb` means inside Lambda bundles: ElectroDB itself, loaded on first use.
 *
 * ElectroDB is CommonJS, and `export * from 'electrodb'` would run its modules while the bundle
 * is imported (about 6 ms here), even for a request that never reaches the table (a refused
 * origin, a malformed body). Our code only touches ElectroDB inside functions (entities are
 * built on first use, see functions/lib/db/service.ts), so each export below loads it when
 * first called.
 * The `require` is resolved by esbuild into the bundle: nothing is read from disk at run time.
 */
/** The parts of ElectroDB our code uses (service.ts and the entities). */
type ElectroDbInUse = Pick<typeof ElectroDB, 'Entity' | 'createGetTransaction' | 'createWriteTransaction'>;
let electrodb: ElectroDbInUse | undefined;

function loadElectroDb(): ElectroDbInUse {
  if (!electrodb) {
    Object.assign(documentCommands as Record<string, unknown>, {
      BatchGetCommand,
      BatchWriteCommand,
      DeleteCommand,
      GetCommand,
      PutCommand,
      QueryCommand,
      ScanCommand,
      TransactGetCommand,
      TransactWriteCommand,
      UpdateCommand,
    });
    // Requires, not imports: esbuild then runs ElectroDB here, on first use, not at load. Its
    // entity and transaction modules, not its index: the index also loads the Service (its
    // collections, which we do not use), 19 KB that every bundle compiled at each cold start.
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { Entity } = require('electrodb/src/entity') as Pick<typeof ElectroDB, 'Entity'>;
    const transactions = require('electrodb/src/transaction') as Pick<
      typeof ElectroDB,
      'createGetTransaction' | 'createWriteTransaction'
    >;
    /* eslint-enable @typescript-eslint/no-require-imports */
    electrodb = {
      Entity,
      createGetTransaction: transactions.createGetTransaction,
      createWriteTransaction: transactions.createWriteTransaction,
    };
  }
  return electrodb;
}

/** `new Entity(schema, config)` answers ElectroDB's own entity (a constructor may return an object). */
export const Entity = function Entity(...args: ConstructorParameters<typeof ElectroDB.Entity>) {
  return new (loadElectroDb().Entity)(...args);
} as unknown as typeof ElectroDB.Entity;

export const createGetTransaction: typeof ElectroDB.createGetTransaction = (...args) =>
  loadElectroDb().createGetTransaction(...args);

export const createWriteTransaction: typeof ElectroDB.createWriteTransaction = (...args) =>
  loadElectroDb().createWriteTransaction(...args);
