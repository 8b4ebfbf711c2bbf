import { Service } from 'electrodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getConfig } from '../config';
import { getDocumentClient } from './client';
import { createAppClientEntity } from './entities/app-client';
import { createFollowerHistoryEntity } from './entities/follower-history';
import { createPublicationEntity } from './entities/publication';
import { createRankChunkEntity } from './entities/rank-chunk';
import { createRankingManifestEntity } from './entities/ranking-manifest';

export function createDb(client: DynamoDBDocumentClient, table: string) {
  return new Service(
    {
      publication: createPublicationEntity(),
      followerHistory: createFollowerHistoryEntity(),
      rankingManifest: createRankingManifestEntity(),
      rankChunk: createRankChunkEntity(),
      appClient: createAppClientEntity(),
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
