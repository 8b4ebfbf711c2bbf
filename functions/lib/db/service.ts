import { createGetTransaction, createWriteTransaction, type Service } from 'electrodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getConfig } from '../config';
import { getDocumentClient } from './client';
import { entityFactories } from './entity-factories';

type EntityFactories = typeof entityFactories;
export type Entities = { [Name in keyof EntityFactories]: ReturnType<EntityFactories[Name]> };

/**
 * The table's entities and transactions, as an ElectroDB Service offers them. Each entity is
 * built on first use: building one validates its model, and joining all of them into a Service
 * took some 200 ms of a cold request's time, most of it for entities that request never uses.
 * A transaction builds them all, as it may touch any of them.
 */
export function createDb(client: DynamoDBDocumentClient, table: string) {
  const entities = {} as Entities;
  for (const name of Object.keys(entityFactories) as (keyof Entities)[]) {
    let entity: Entities[typeof name] | undefined;
    Object.defineProperty(entities, name, {
      enumerable: true,
      get: () => (entity ??= entityFactories[name]({ client, table }) as Entities[typeof name]),
    });
  }
  const transaction: Service<Entities>['transaction'] = {
    write: (fn) => createWriteTransaction(entities, fn),
    get: (fn) => createGetTransaction(entities, fn),
  };
  // The client and table, for the rare access pattern that spans entities (one Query over a partition).
  return { entities, transaction, client, table };
}

export type Db = ReturnType<typeof createDb>;

let db: Db | undefined;

/** The service bound to this instance's table and client, built on first use. */
export function getDb(): Db {
  db ??= createDb(getDocumentClient(), getConfig().tableName);
  return db;
}
