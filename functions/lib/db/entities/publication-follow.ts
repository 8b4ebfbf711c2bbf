import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * A person following a publication. Keyed by the person, so "what do I follow" is one Query in
 * their partition; gsi1 lists a publication's followers, for the ranking job's notifications
 * and the weekly digest.
 */
export const createPublicationFollowEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'publicationFollow', version: '1' },
      attributes: {
        userId: userIdAttribute,
        slug: { type: 'string', required: true },
        createdAt: { type: 'string', required: true },
      },
      indexes: {
        byUser: {
          pk: { field: 'pk', composite: ['userId'] },
          sk: { field: 'sk', composite: ['slug'] },
        },
        bySlug: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['slug'] },
          sk: { field: 'gsi1sk', composite: ['userId'] },
        },
      },
    },
    config,
  );

export type PublicationFollowItem = EntityItem<ReturnType<typeof createPublicationFollowEntity>>;
