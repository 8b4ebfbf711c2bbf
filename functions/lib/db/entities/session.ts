import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/** A signed-in session, keyed by the SHA-256 of its token: the token itself is never stored. */
export const createSessionEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'session', version: '1' },
      attributes: {
        tokenHash: { type: 'string', required: true },
        sessionId: { type: 'string', required: true },
        userId: userIdAttribute,
        createdAt: { type: 'string', required: true },
        lastUsedAt: { type: 'string', required: true },
        userAgent: { type: 'string', default: '' },
        /** Epoch seconds; the TTL attribute. Code checks it too, since TTL deletes late. */
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byTokenHash: {
          pk: { field: 'pk', composite: ['tokenHash'] },
          sk: { field: 'sk', composite: [] },
        },
        byUser: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['userId'] },
          sk: { field: 'gsi1sk', composite: ['createdAt'] },
        },
      },
    },
    config,
  );

export type SessionItem = EntityItem<ReturnType<typeof createSessionEntity>>;
