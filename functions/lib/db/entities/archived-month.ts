import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/** The one list of archived months. */
export const ARCHIVED_MONTHS_LIST = 'archive';

/**
 * A month whose archive is complete: written last, once, by the archive job, so its presence
 * means every scope of the month and every publication's link to it are stored. The months are
 * one partition: the list of archived months is one Query.
 */
export const createArchivedMonthEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'archivedMonth', version: '1' },
      attributes: {
        list: { type: 'string', required: true },
        month: { type: 'string', required: true },
        publicationCount: { type: 'number', required: true },
        topicCount: { type: 'number', required: true },
        archivedAt: { type: 'string', required: true },
      },
      indexes: {
        byListAndMonth: {
          pk: { field: 'pk', composite: ['list'] },
          sk: { field: 'sk', composite: ['month'] },
        },
      },
    },
    config,
  );

export type ArchivedMonthItem = EntityItem<ReturnType<typeof createArchivedMonthEntity>>;
