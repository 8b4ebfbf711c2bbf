import { Service } from 'electrodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getConfig } from '../config';
import { getDocumentClient } from './client';
import { appClientEntity } from './entities/app-client';
import { followerHistoryEntity } from './entities/follower-history';
import { publicationEntity } from './entities/publication';
import { rankChunkEntity } from './entities/rank-chunk';
import { rankingManifestEntity } from './entities/ranking-manifest';

export function createDb(client: DynamoDBDocumentClient, table: string) {
  return new Service(
    {
      publication: publicationEntity,
      followerHistory: followerHistoryEntity,
      rankingManifest: rankingManifestEntity,
      rankChunk: rankChunkEntity,
      appClient: appClientEntity,
    },
    { client, table },
  );
}

export type Db = ReturnType<typeof createDb>;

let db: Db | undefined;

/** The service bound to this instance's table and client, built on first use. */
export function getDb(): Db {
  db ??= createDb(getDocumentClient(), getConfig().tableName);
  return db;
}
