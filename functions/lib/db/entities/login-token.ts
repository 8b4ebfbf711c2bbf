import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/** An emailed one-time token (login link), stored only as its SHA-256; spent by a conditional update. */
export const createLoginTokenEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'loginToken', version: '1' },
      attributes: {
        tokenHash: { type: 'string', required: true },
        purpose: { type: ['login'] as const, required: true },
        email: { type: 'string', required: true },
        contextData: { type: 'any' },
        createdAt: { type: 'string', required: true },
        usedAt: { type: 'string' },
        /** Epoch seconds: the link stops working then (and the item is deleted some time later). */
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byTokenHash: {
          pk: { field: 'pk', composite: ['tokenHash'] },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type LoginTokenItem = EntityItem<ReturnType<typeof createLoginTokenEntity>>;
