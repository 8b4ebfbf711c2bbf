import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * A single sign-on code handed to a sibling app in its return URL: stored only as its SHA-256,
 * bound to the app's origin, the user and the session that asked for it; spent once by a
 * conditional update, within a minute.
 */
export const createSsoCodeEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'ssoCode', version: '1' },
      attributes: {
        codeHash: { type: 'string', required: true },
        userId: { type: 'string', required: true },
        /** The origin of the return URL the code was sent to; the exchange must name the same. */
        origin: { type: 'string', required: true },
        /** The token hash (key) of the session that asked: a code dies with that session. */
        sessionTokenHash: { type: 'string', required: true },
        createdAt: { type: 'string', required: true },
        usedAt: { type: 'string' },
        /** Epoch seconds: the code stops working then (and the item is deleted some time later). */
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byCodeHash: {
          pk: { field: 'pk', composite: ['codeHash'] },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type SsoCodeItem = EntityItem<ReturnType<typeof createSsoCodeEntity>>;
