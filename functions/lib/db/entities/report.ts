import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { normaliseUserId } from '../../../../shared/schemas/account';
import { userIdAttribute } from './user-id';

export const REPORT_OBJECT_TYPES = ['user', 'story', 'publication', 'transfer', 'file', 'comment'] as const;
export const REPORT_REASONS = ['spam', 'abuse', 'impersonation', 'copyright', 'other'] as const;
/** What a moderator did about an object's reports: nothing needed, or something done about it. */
export const REPORT_RESOLUTIONS = ['dismissed', 'actioned'] as const;

/**
 * A report of an object for moderation. One item per reporter and object: the object is the
 * partition, so moderators list every report of an object with one Query, and a repeat report
 * by the same person updates their item instead of adding another. gsi1 lists the open ones.
 */
export const createReportEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'report', version: '1' },
      attributes: {
        objectType: { type: REPORT_OBJECT_TYPES, required: true },
        objectId: {
          type: 'string',
          required: true,
          // A reported user is named by their user id, stored like every other user id.
          set: (value?: string, item?: { objectType?: string }) =>
            value !== undefined && item?.objectType === 'user' ? normaliseUserId(value) : value,
        },
        reporterId: userIdAttribute,
        reason: { type: REPORT_REASONS, required: true },
        details: { type: 'string', default: '' },
        createdAt: { type: 'string', required: true },
        updatedAt: { type: 'string', required: true },
        /** Open until a moderator resolves the object's reports; a new report re-opens it. */
        status: { type: ['open', 'resolved'] as const, required: true, default: 'open' },
        resolution: { type: REPORT_RESOLUTIONS },
        resolvedAt: { type: 'string' },
        resolvedBy: { type: 'string' },
      },
      indexes: {
        // Object ids from the sibling apps may be case-sensitive: the key keeps their case
        // (user ids, which are not, are lower-cased before they get here).
        byObject: {
          pk: { field: 'pk', composite: ['objectType', 'objectId'], casing: 'none' },
          sk: { field: 'sk', composite: ['reporterId'] },
        },
        // The moderators' list: every open report, newest first, in one partition (reports are few).
        byStatus: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['status'] },
          sk: { field: 'gsi1sk', composite: ['updatedAt', 'objectType', 'objectId', 'reporterId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type ReportItem = EntityItem<ReturnType<typeof createReportEntity>>;
