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
let electrodb: typeof ElectroDB | undefined;

function loadElectroDb(): typeof ElectroDB {
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
    // A require, not an import: esbuild then runs ElectroDB here, on first use, not at load.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    electrodb = require('electrodb') as typeof ElectroDB;
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
