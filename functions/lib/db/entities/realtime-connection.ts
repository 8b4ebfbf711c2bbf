import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * An open WebSocket connection of a signed-in person. Keyed by the person, so a push reads
 * every connection they have in one strongly consistent Query (a tab that connected a moment
 * ago is not missed); `$disconnect` knows only the connection id and finds it through gsi1.
 * The TTL removes what a lost `$disconnect` leaves behind once API Gateway would have closed
 * the connection anyway.
 */
export const createRealtimeConnectionEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'realtimeConnection', version: '1' },
      attributes: {
        userId: userIdAttribute,
        connectionId: { type: 'string', required: true },
        channel: { type: 'string', required: true },
        connectedAt: { type: 'string', required: true },
        /** Epoch seconds; the TTL attribute. */
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byUser: {
          pk: { field: 'pk', composite: ['userId'] },
          sk: { field: 'sk', composite: ['connectionId'] },
        },
        byConnection: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['connectionId'] },
          sk: { field: 'gsi1sk', composite: [] },
        },
      },
    },
    config,
  );

export type RealtimeConnectionItem = EntityItem<ReturnType<typeof createRealtimeConnectionEntity>>;
