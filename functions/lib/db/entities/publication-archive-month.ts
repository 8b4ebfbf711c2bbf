import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * A publication's places on one archived month's boards. It shares the publication's partition
 * (same pk as the publication and its follower history), so the publication page's one Query
 * brings the months it ranked in along.
 */
export const createPublicationArchiveMonthEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'publicationArchiveMonth', version: '1' },
      attributes: {
        slug: { type: 'string', required: true },
        month: { type: 'string', required: true },
        /** PublicationArchiveMonth['placements']. */
        placements: { type: 'any', required: true },
      },
      indexes: {
        bySlugAndMonth: {
          pk: { field: 'pk', composite: ['slug'] },
          sk: { field: 'sk', composite: ['month'] },
        },
      },
    },
    config,
  );

export type PublicationArchiveMonthItem = EntityItem<ReturnType<typeof createPublicationArchiveMonthEntity>>;
