import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

export const REPORT_OBJECT_TYPES = ['user', 'story', 'publication', 'transfer', 'file'] as const;
export const REPORT_REASONS = ['spam', 'abuse', 'impersonation', 'copyright', 'other'] as const;

/**
 * A report of an object for moderation. One item per reporter and object: the object is the
 * partition, so moderators list every report of an object with one Query, and a repeat report
 * by the same person updates their item instead of adding another.
 */
export const createReportEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'report', version: '1' },
      attributes: {
        objectType: { type: REPORT_OBJECT_TYPES, required: true },
        objectId: { type: 'string', required: true },
        reporterId: { type: 'string', required: true },
        reason: { type: REPORT_REASONS, required: true },
        details: { type: 'string', default: '' },
        createdAt: { type: 'string', required: true },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        // Object ids from the sibling apps may be case-sensitive: the key keeps their case.
        byObject: {
          pk: { field: 'pk', composite: ['objectType', 'objectId'], casing: 'none' },
          sk: { field: 'sk', composite: ['reporterId'] },
        },
      },
    },
    config,
  );

export type ReportItem = EntityItem<ReturnType<typeof createReportEntity>>;
