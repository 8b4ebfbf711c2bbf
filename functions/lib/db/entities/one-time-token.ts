import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * A one-time token of some purpose (login link, verify-email link, sign-on code, OAuth login
 * state, ...), stored only as the SHA-256 of its value. The purpose is part of the key, so a
 * token of one purpose can never be spent as another. What the token stands for rides in
 * `payload` as JSON text (a map in tokens issued before), typed per purpose in code
 * (functions/lib/one-time-tokens.ts). Spent once by a
 * conditional update setting `usedAt`.
 */
export const createOneTimeTokenEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'oneTimeToken', version: '1' },
      attributes: {
        purpose: { type: 'string', required: true },
        /** SHA-256 (hex) of the token's value; the value itself is never stored. */
        tokenHash: { type: 'string', required: true },
        payload: { type: 'any', required: true },
        createdAt: { type: 'string', required: true },
        usedAt: { type: 'string' },
        /** Epoch seconds; the TTL attribute. Code checks it too, since TTL deletes late. */
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byPurposeAndHash: {
          pk: { field: 'pk', composite: ['purpose', 'tokenHash'] },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type OneTimeTokenItem = EntityItem<ReturnType<typeof createOneTimeTokenEntity>>;
