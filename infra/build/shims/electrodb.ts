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
import type { ElectroDbInUse } from './electrodb-library';
import { loadBeforeFirstCall } from './first-call';

/**
 * What `electrodb` means inside Lambda bundles: ElectroDB itself (electrodb-library.ts), in a
 * chunk of its own (see bundle-functions.ts) that the bundle loads on its first call, not at
 * import.
 *
 * ElectroDB's modules are some 170 KB minified that every cold start compiled while the bundle
 * was imported, even for a request that never reaches the table (a refused origin, a malformed
 * body). Our code only touches ElectroDB inside functions (entities are built on first use, see
 * functions/lib/db/service.ts), and every bundled handler runs after the loaders registered
 * here (first-call.ts), so the exports below stay synchronous.
 *
 * ElectroDB gets the ten document client commands it uses from here, imported the ordinary way
 * (not the whole DynamoDB client, which ElectroDB's require() of @aws-sdk/lib-dynamodb would
 * bring: see electrodb-document-commands.cjs).
 */
let electrodb: ElectroDbInUse | undefined;

loadBeforeFirstCall(async () => {
  const { electrodbWith } = await import('./electrodb-library');
  electrodb ??= electrodbWith({
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
});

function loaded(): ElectroDbInUse {
  if (!electrodb) throw new Error('ElectroDB is used before the bundle loaded it: call the handler the bundle exports.');
  return electrodb;
}

/** `new Entity(schema, config)` answers ElectroDB's own entity (a constructor may return an object). */
export const Entity = function Entity(...args: ConstructorParameters<typeof ElectroDB.Entity>) {
  return new (loaded().Entity)(...args);
} as unknown as typeof ElectroDB.Entity;

export const createGetTransaction: typeof ElectroDB.createGetTransaction = (...args) => loaded().createGetTransaction(...args);

export const createWriteTransaction: typeof ElectroDB.createWriteTransaction = (...args) =>
  loaded().createWriteTransaction(...args);
