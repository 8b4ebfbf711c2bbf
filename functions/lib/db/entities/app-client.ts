import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/** A server-side app allowed to call `app` routes, with its sign-on origins. Only the SHA-256 of its token is stored. */
export const createAppClientEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'appClient', version: '1' },
      attributes: {
        appId: { type: 'string', required: true },
        name: { type: 'string', required: true },
        tokenHash: { type: 'string', required: true },
        /** The origins registered with the app for single sign-on (each also an appOrigin item). */
        origins: { type: 'list', items: { type: 'string' }, default: () => [] },
        createdAt: { type: 'string', required: true },
      },
      indexes: {
        byAppId: {
          pk: { field: 'pk', composite: ['appId'] },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type AppClientItem = EntityItem<ReturnType<typeof createAppClientEntity>>;
