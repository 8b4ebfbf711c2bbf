import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { FILE_REQUEST_STATUSES } from '../../../../shared/schemas/file-requests';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * A file request: its owner asks anyone holding its link (the id, 128 random bits) to upload
 * files to them. Each upload is a transfer of the owner's (transfer.requestId names the
 * request). The request carries its limits, fixed at creation from the owner's plan, and the
 * running totals they are checked against, moved by conditional writes so concurrent uploaders
 * cannot overfill it: uploads started, uploads finished, and the declared bytes of the files
 * uploaders added and did not remove. `expiresAt`, the table's TTL, comes 30 days after
 * `availableUntil`, so the link can still say it expired meanwhile.
 */
export const createFileRequestEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'fileRequest', version: '1' },
      attributes: {
        requestId: { type: 'string', required: true },
        ownerId: userIdAttribute,
        title: { type: 'string', required: true },
        message: { type: 'string', required: true, default: '' },
        status: { type: FILE_REQUEST_STATUSES, required: true, default: 'open' },
        planId: { type: ['free', 'pro'] as const, required: true },
        maxUploads: { type: 'number', required: true },
        maxBytes: { type: 'number', required: true },
        maxUploadBytes: { type: 'number', required: true },
        uploadCount: { type: 'number', required: true, default: 0 },
        finishedCount: { type: 'number', required: true, default: 0 },
        totalBytes: { type: 'number', required: true, default: 0 },
        createdAt: { type: 'string', required: true },
        closedAt: { type: 'string' },
        availableUntil: { type: 'string', required: true },
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['requestId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
        byOwner: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['ownerId'] },
          sk: { field: 'gsi1sk', composite: ['createdAt', 'requestId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type FileRequestItem = EntityItem<ReturnType<typeof createFileRequestEntity>>;
