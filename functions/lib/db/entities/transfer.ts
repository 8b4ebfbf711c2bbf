import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

export const TRANSFER_STATUSES = ['draft', 'sent'] as const;

/**
 * A sender's transfer: a draft while files and recipients are added, then sent (finalized), when
 * it stops growing. It carries the limits of the sender's plan at creation, the running totals
 * the limits are checked against (changed in the same transaction as the file or recipient that
 * moves them) and when it stops being available (`availableUntil`). `expiresAt`, the table's
 * TTL, is set 30 days later, so the package can still answer 410 with its date meanwhile.
 */
export const createTransferEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'transfer', version: '1' },
      attributes: {
        transferId: { type: 'string', required: true },
        ownerId: userIdAttribute,
        title: { type: 'string', required: true, default: '' },
        message: { type: 'string', required: true, default: '' },
        status: { type: TRANSFER_STATUSES, required: true, default: 'draft' },
        planId: { type: ['free', 'pro'] as const, required: true },
        maxTransferBytes: { type: 'number', required: true },
        maxRecipients: { type: 'number', required: true },
        fileCount: { type: 'number', required: true, default: 0 },
        /** Declared bytes of every file added and not deleted. */
        totalBytes: { type: 'number', required: true, default: 0 },
        recipientCount: { type: 'number', required: true, default: 0 },
        createdAt: { type: 'string', required: true },
        finalizedAt: { type: 'string' },
        availableUntil: { type: 'string', required: true },
        sendTimingMs: { type: 'number' },
        /**
         * How many vote changes the package's tally holds, moved in each vote's transaction (0 at
         * the send): package reads re-read the tally only when it moved. Absent on transfers sent
         * before it was counted.
         */
        voteChanges: { type: 'number' },
        /** 'link': sent without needing recipients; anyone holding its link key opens the package. */
        delivery: { type: ['email', 'link'] as const },
        /** SHA-256 (hex) of the link key made at the send; the key itself is never stored. */
        linkKeyHash: { type: 'string' },
        /** Downloads the package serves before it stops (the sender's choice); absent: no limit. */
        downloadLimit: { type: 'number' },
        /** Downloads counted against the limit, each by a conditional write (below the limit). */
        downloadCount: { type: 'number' },
        /** Previews opened by anyone but the sender: views, never counted against the limit. */
        previewCount: { type: 'number' },
        /** When the limit was reached and the sender told (once). */
        limitReachedAt: { type: 'string' },
        /**
         * A password's slow hash with its salt and parameters (functions/transfers/lib/package-password.ts):
         * absent on a transfer anyone it was sent to may open. Never answered by any route.
         */
        passwordHash: { type: 'string' },
        expiresAt: { type: 'number', required: true },
        /**
         * Set on an upload through one of the owner's file requests (file-request.ts): the
         * request, and who uploaded (no account: the name and note they gave).
         */
        requestId: { type: 'string' },
        uploaderName: { type: 'string' },
        uploaderNote: { type: 'string' },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['transferId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
        byOwner: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['ownerId'] },
          sk: { field: 'gsi1sk', composite: ['createdAt', 'transferId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type TransferItem = EntityItem<ReturnType<typeof createTransferEntity>>;
