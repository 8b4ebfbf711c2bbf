import { createGetTransaction, createWriteTransaction, type EntityConfiguration, type Service } from 'electrodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getConfig } from '../config';
import { getDocumentClient } from './client';
import { createAppClientEntity } from './entities/app-client';
import { createAppOriginEntity } from './entities/app-origin';
import { createBlockEntity } from './entities/block';
import { createDiscountCodeEntity } from './entities/discount-code';
import { createDiscountUseEntity } from './entities/discount-use';
import { createFollowEntity } from './entities/follow';
import { createFollowerHistoryEntity } from './entities/follower-history';
import { createPublicationEntity } from './entities/publication';
import { createPublicationFollowEntity } from './entities/publication-follow';
import { createPublicationSourceEntity } from './entities/publication-source';
import { createPublicationSuggestionEntity } from './entities/publication-suggestion';
import { createPublicationWatchEntity } from './entities/publication-watch';
import { createRankChunkEntity } from './entities/rank-chunk';
import { createRankHistoryEntity } from './entities/rank-history';
import { createRankingManifestEntity } from './entities/ranking-manifest';
import { createBoardFeedEntity } from './entities/board-feed';
import { createIdentityClaimEntity } from './entities/identity-claim';
import { createRateLimitEntity } from './entities/rate-limit';
import { createReportEntity } from './entities/report';
import { createSessionEntity } from './entities/session';
import { createStoryEntity, createStoryReviewEntity, createStoryUrlEntity } from './entities/story';
import { createStoryRelationEntity } from './entities/story-relation';
import { createStoryLikeShardEntity } from './entities/story-like-shard';
import { createCommentEntity } from './entities/comment';
import { createSiteStoryEntity, createStorySiteEntity } from './entities/story-site';
import { createStoryListEntity, createTimelineEntryEntity } from './entities/story-feed';
import { createUserEntity } from './entities/user';
import { createExternalIdentityEntity } from './entities/external-identity';
import { createOneTimeTokenEntity } from './entities/one-time-token';
import { createNotificationEntity, createNotificationGroupEntity } from './entities/notification';
import { createRealtimeConnectionEntity } from './entities/realtime-connection';
import { createTransferEntity } from './entities/transfer';
import { createStoredFileEntity } from './entities/stored-file';
import { createTransferMemberEntity } from './entities/transfer-member';
import { createReceivedTransferEntity } from './entities/received-transfer';
import { createTransferContactEntity } from './entities/transfer-contact';
import { createTransferVoteEntity } from './entities/transfer-vote';
import { createTransferManifestEntity } from './entities/transfer-manifest';
import { createTransferTallyEntity } from './entities/transfer-tally';
import { createFileRequestEntity } from './entities/file-request';
import { createTransferDownloadEntity } from './entities/transfer-download';
import { createTransferDownloadClaimEntity } from './entities/transfer-download-claim';
import { createInvoiceEntity } from './entities/invoice';
import { createOpenInvoiceEntity } from './entities/open-invoice';
import { createSubscriptionEntity } from './entities/subscription';
import { createSubscriptionSlotEntity } from './entities/subscription-slot';
import { createPaymentEntity } from './entities/payment';
import { createWebhookEventEntity } from './entities/webhook-event';
import {
  createMerchantAccountEntity,
  createMerchantGatewayKeysEntity,
  createMerchantHandleEntity,
  createMerchantOwnerEntity,
} from './entities/merchant-account';
import { createProductStockEntity } from './entities/product-stock';
import { createProductStockGradeEntity } from './entities/product-stock-grade';
import { createCartItemEntity } from './entities/cart-item';
import { createStoreOrderEntity } from './entities/store-order';
import { createStoreDownloadEntity } from './entities/store-download';
import { createStoreRefundEntity } from './entities/store-refund';
import { createProRefundEntity } from './entities/pro-refund';
import { createStoreFigureEntity, createStoreSaleEntity } from './entities/store-figures';
import { createReconciliationEntity } from './entities/reconciliation';
import { createRankingArchiveEntity } from './entities/ranking-archive';
import { createArchivedMonthEntity } from './entities/archived-month';
import { createPublicationArchiveMonthEntity } from './entities/publication-archive-month';

/** Every entity of the table, by the name code reaches it with (`db.entities.<name>`). */
const entityFactories = {
  publication: createPublicationEntity,
  followerHistory: createFollowerHistoryEntity,
  rankingManifest: createRankingManifestEntity,
  rankChunk: createRankChunkEntity,
  rankHistory: createRankHistoryEntity,
  boardFeed: createBoardFeedEntity,
  publicationFollow: createPublicationFollowEntity,
  publicationWatch: createPublicationWatchEntity,
  publicationSource: createPublicationSourceEntity,
  publicationSuggestion: createPublicationSuggestionEntity,
  appClient: createAppClientEntity,
  appOrigin: createAppOriginEntity,
  user: createUserEntity,
  identityClaim: createIdentityClaimEntity,
  session: createSessionEntity,
  rateLimit: createRateLimitEntity,
  block: createBlockEntity,
  report: createReportEntity,
  externalIdentity: createExternalIdentityEntity,
  oneTimeToken: createOneTimeTokenEntity,
  story: createStoryEntity,
  storyUrl: createStoryUrlEntity,
  storyReview: createStoryReviewEntity,
  storyRelation: createStoryRelationEntity,
  storyLikeShard: createStoryLikeShardEntity,
  comment: createCommentEntity,
  timelineEntry: createTimelineEntryEntity,
  storyList: createStoryListEntity,
  storySite: createStorySiteEntity,
  siteStory: createSiteStoryEntity,
  follow: createFollowEntity,
  notification: createNotificationEntity,
  notificationGroup: createNotificationGroupEntity,
  realtimeConnection: createRealtimeConnectionEntity,
  transfer: createTransferEntity,
  storedFile: createStoredFileEntity,
  transferMember: createTransferMemberEntity,
  receivedTransfer: createReceivedTransferEntity,
  transferContact: createTransferContactEntity,
  transferVote: createTransferVoteEntity,
  transferManifest: createTransferManifestEntity,
  transferTally: createTransferTallyEntity,
  fileRequest: createFileRequestEntity,
  transferDownload: createTransferDownloadEntity,
  transferDownloadClaim: createTransferDownloadClaimEntity,
  invoice: createInvoiceEntity,
  openInvoice: createOpenInvoiceEntity,
  subscriptionSlot: createSubscriptionSlotEntity,
  subscription: createSubscriptionEntity,
  payment: createPaymentEntity,
  webhookEvent: createWebhookEventEntity,
  merchantAccount: createMerchantAccountEntity,
  merchantHandle: createMerchantHandleEntity,
  merchantOwner: createMerchantOwnerEntity,
  merchantGatewayKeys: createMerchantGatewayKeysEntity,
  productStock: createProductStockEntity,
  productStockGrade: createProductStockGradeEntity,
  cartItem: createCartItemEntity,
  storeOrder: createStoreOrderEntity,
  storeDownload: createStoreDownloadEntity,
  storeRefund: createStoreRefundEntity,
  proRefund: createProRefundEntity,
  storeFigure: createStoreFigureEntity,
  storeSale: createStoreSaleEntity,
  discountCode: createDiscountCodeEntity,
  discountUse: createDiscountUseEntity,
  reconciliation: createReconciliationEntity,
  rankingArchive: createRankingArchiveEntity,
  archivedMonth: createArchivedMonthEntity,
  publicationArchiveMonth: createPublicationArchiveMonthEntity,
} satisfies Record<string, (config: EntityConfiguration) => unknown>;

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
