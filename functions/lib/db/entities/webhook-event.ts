import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * A verified webhook, by the hash of its payload: stored with a conditional put, so a delivery
 * the gateway repeats is acknowledged and ignored. Kept 30 days (TTL), longer than the gateway
 * retries a delivery.
 */
export const createWebhookEventEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'webhookEvent', version: '1' },
      attributes: {
        eventId: { type: 'string', required: true },
        sellerId: { type: 'string', required: true },
        kind: { type: 'string', required: true },
        subjectId: { type: 'string' },
        /** When the gateway stamped it. */
        sentAt: { type: 'string', required: true },
        receivedAt: { type: 'string', required: true },
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['eventId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type WebhookEventItem = EntityItem<ReturnType<typeof createWebhookEventEntity>>;
