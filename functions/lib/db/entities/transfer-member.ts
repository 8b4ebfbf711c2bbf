import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * A recipient of a transfer, by the (lower-cased) address it was sent to: whoever signs in with
 * that address, verified, is the member, whether their account existed when they were added or
 * was made when they opened the emailed link. The recipients of a transfer are one Query of its
 * partition; `downloads` keeps what they downloaded and when (the latest 100).
 */
export const createTransferMemberEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'transferMember', version: '1' },
      attributes: {
        transferId: { type: 'string', required: true },
        email: { type: 'string', required: true },
        userId: { type: 'string' },
        addedAt: { type: 'string', required: true },
        notifiedAt: { type: 'string' },
        firstDownloadAt: { type: 'string' },
        downloads: {
          type: 'list',
          items: {
            type: 'map',
            properties: { fileId: { type: 'string', required: true }, at: { type: 'string', required: true } },
          },
        },
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byTransfer: {
          pk: { field: 'pk', composite: ['transferId'], casing: 'none' },
          sk: { field: 'sk', composite: ['email'], casing: 'none' },
        },
      },
    },
    config,
  );

export type TransferMemberItem = EntityItem<ReturnType<typeof createTransferMemberEntity>>;

/**
 * A sent transfer in a recipient's list, by address (so an account made later sees what was sent
 * before), newest first. Written when the transfer is sent, or when a recipient is added after.
 */
export const createReceivedTransferEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'receivedTransfer', version: '1' },
      attributes: {
        email: { type: 'string', required: true },
        transferId: { type: 'string', required: true },
        sentAt: { type: 'string', required: true },
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byRecipient: {
          pk: { field: 'pk', composite: ['email'], casing: 'none' },
          sk: { field: 'sk', composite: ['sentAt', 'transferId'], casing: 'none' },
        },
      },
    },
    config,
  );

/**
 * Someone a user has sent to, for the recipient field's autocomplete: one item per sender and
 * address, put again at each send so gsi1 orders them most recent first.
 */
export const createTransferContactEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'transferContact', version: '1' },
      attributes: {
        ownerId: { type: 'string', required: true },
        email: { type: 'string', required: true },
        name: { type: 'string' },
        lastSentAt: { type: 'string', required: true },
      },
      indexes: {
        byAddress: {
          pk: { field: 'pk', composite: ['ownerId'], casing: 'none' },
          sk: { field: 'sk', composite: ['email'], casing: 'none' },
        },
        recent: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['ownerId'], casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['lastSentAt', 'email'], casing: 'none' },
        },
      },
    },
    config,
  );

/**
 * A member's vote on one file of a package: one item per member and file, in the member's own
 * partition of the transfer, so "my votes" is one Query. Written in the same transaction as the
 * file's counts.
 */
export const createTransferVoteEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'transferVote', version: '1' },
      attributes: {
        transferId: { type: 'string', required: true },
        userId: { type: 'string', required: true },
        fileId: { type: 'string', required: true },
        vote: { type: ['like', 'dislike'] as const, required: true },
        votedAt: { type: 'string', required: true },
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byVoter: {
          pk: { field: 'pk', composite: ['transferId', 'userId'], casing: 'none' },
          sk: { field: 'sk', composite: ['fileId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type TransferVoteItem = EntityItem<ReturnType<typeof createTransferVoteEntity>>;
