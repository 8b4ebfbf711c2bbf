import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { finalKeyOf } from '../../../../shared/transfers/object-keys';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

export const STORED_FILE_PURPOSES = ['transfer', 'image', 'product'] as const;
export const STORED_FILE_STATUSES = ['pending', 'ready'] as const;
export const UPLOAD_METHODS = ['post', 'multipart', 'server'] as const;

/**
 * A file record (the spec's "B record"): created pending with the size and type its sender
 * declared and the server-chosen object key its bytes go to, then made ready once the object
 * was checked (and, for a presigned POST, copied to its final key). A transfer's files are listed through gsi1 in upload order. Pending records
 * expire (TTL) two days after creation, as S3 aborts their unfinished uploads after one; a
 * transfer's ready files take the transfer's expiry.
 */
export const createStoredFileEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'storedFile', version: '1' },
      attributes: {
        fileId: { type: 'string', required: true },
        purpose: { type: STORED_FILE_PURPOSES, required: true },
        ownerId: userIdAttribute,
        transferId: { type: 'string' },
        /**
         * What the file is listed under: 'transfer:<id>' for a transfer's file, 'images:<owner>' for an
         * image, 'grade:<id>' for a file a shop's grade delivers after purchase (purpose 'product').
         */
        folder: { type: 'string', required: true },
        name: { type: 'string', required: true },
        size: { type: 'number', required: true },
        contentType: { type: 'string', required: true },
        status: { type: STORED_FILE_STATUSES, required: true, default: 'pending' },
        uploadMethod: { type: UPLOAD_METHODS, required: true },
        /** The upload key: where the browser sends the bytes (shared/transfers/object-keys.ts). */
        objectKey: { type: 'string', required: true },
        /**
         * Where a ready file's bytes are when finalize copied them there from its presigned POST's
         * upload key: a key no upload form names. Absent for a multipart upload (its key is final
         * once completed), an image the server stored, and files made ready before it existed;
         * their bytes are at objectKey.
         */
        finalKey: { type: 'string' },
        /** S3's id of the multipart upload: never shown to a client. */
        uploadId: { type: 'string' },
        partSize: { type: 'number' },
        partCount: { type: 'number' },
        lastModified: { type: 'number' },
        checksum: { type: 'string' },
        createdAt: { type: 'string', required: true },
        readyAt: { type: 'string' },
        expiresAt: { type: 'number' },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['fileId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
        byFolder: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['folder'], casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['createdAt', 'fileId'], casing: 'none' },
        },
      },
    },
    config,
  );

export const transferFolder = (transferId: string) => `transfer:${transferId}`;
export const imageFolder = (ownerId: string) => `images:${ownerId}`;
export const gradeFolder = (productStockGradeId: string) => `grade:${productStockGradeId}`;

export type StoredFileItem = EntityItem<ReturnType<typeof createStoredFileEntity>>;

/**
 * Where a ready file's bytes are read from: its final key once finalize copied them there, its
 * upload key otherwise (a multipart upload, an image the server stored, a file made ready
 * before final keys existed).
 */
export const storedKeyOf = (file: Pick<StoredFileItem, 'objectKey' | 'finalKey'>) => file.finalKey ?? file.objectKey;

/**
 * Every key that may hold a file's bytes, for removing them: the upload key, and for a presigned
 * POST its final key too, which a finalize cut short after its copy leaves behind a pending file.
 */
export const objectKeysOf = (file: Pick<StoredFileItem, 'objectKey' | 'finalKey' | 'uploadMethod'>) =>
  file.uploadMethod === 'post' ? [file.objectKey, file.finalKey ?? finalKeyOf(file.objectKey)] : [file.objectKey];
