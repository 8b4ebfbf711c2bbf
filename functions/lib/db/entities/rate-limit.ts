import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/** A counter for one key in one fixed time window (e.g. login emails to one address per minute). */
export const createRateLimitEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'rateLimit', version: '1' },
      attributes: {
        key: { type: 'string', required: true },
        windowStart: { type: 'number', required: true },
        count: { type: 'number', required: true },
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byKeyAndWindow: {
          pk: { field: 'pk', composite: ['key'] },
          sk: { field: 'sk', composite: ['windowStart'] },
        },
      },
    },
    config,
  );

export type RateLimitItem = EntityItem<ReturnType<typeof createRateLimitEntity>>;
