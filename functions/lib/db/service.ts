import { Service } from 'electrodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getConfig } from '../config';
import { getDocumentClient } from './client';
import { createAppClientEntity } from './entities/app-client';
import { createAppOriginEntity } from './entities/app-origin';
import { createBlockEntity } from './entities/block';
import { createFollowerHistoryEntity } from './entities/follower-history';
import { createPublicationEntity } from './entities/publication';
import { createRankChunkEntity } from './entities/rank-chunk';
import { createRankingManifestEntity } from './entities/ranking-manifest';
import { createIdentityClaimEntity } from './entities/identity-claim';
import { createRateLimitEntity } from './entities/rate-limit';
import { createReportEntity } from './entities/report';
import { createSessionEntity } from './entities/session';
import { createUserEntity } from './entities/user';
import { createExternalIdentityEntity } from './entities/external-identity';
import { createOneTimeTokenEntity } from './entities/one-time-token';

export function createDb(client: DynamoDBDocumentClient, table: string) {
  return new Service(
    {
      publication: createPublicationEntity(),
      followerHistory: createFollowerHistoryEntity(),
      rankingManifest: createRankingManifestEntity(),
      rankChunk: createRankChunkEntity(),
      appClient: createAppClientEntity(),
      appOrigin: createAppOriginEntity(),
      user: createUserEntity(),
      identityClaim: createIdentityClaimEntity(),
      session: createSessionEntity(),
      rateLimit: createRateLimitEntity(),
      block: createBlockEntity(),
      report: createReportEntity(),
      externalIdentity: createExternalIdentityEntity(),
      oneTimeToken: createOneTimeTokenEntity(),
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
