import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/** Actions an emailed token can complete (GET /authed/{authToken}/action/{type}). */
export const ACTION_TYPES = ['verify-email'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/**
 * An emailed one-time token for an account action (email verification), stored only as its
 * SHA-256; bound to a user and the address it was sent to; spent once by a conditional update.
 */
export const createActionTokenEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'actionToken', version: '1' },
      attributes: {
        tokenHash: { type: 'string', required: true },
        purpose: { type: ACTION_TYPES, required: true },
        userId: { type: 'string', required: true },
        /** The (lower-cased) address the link went to; the action checks it is still the user's. */
        email: { type: 'string', required: true },
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

export type ActionTokenItem = EntityItem<ReturnType<typeof createActionTokenEntity>>;
