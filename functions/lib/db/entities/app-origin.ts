import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * Which registered app an origin belongs to (single sign-on). One item per origin, written in
 * the same transaction as the app's registration on condition that no other app holds it, so
 * an origin belongs to at most one app: single sign-on sends codes only to registered origins,
 * and only the app registered for a code's origin may exchange it.
 */
export const createAppOriginEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'appOrigin', version: '1' },
      attributes: {
        /** An http(s) origin as URL.origin writes it: scheme, lower-case host, port when not the default. */
        origin: { type: 'string', required: true },
        appId: { type: 'string', required: true },
        createdAt: { type: 'string', required: true },
      },
      indexes: {
        byOrigin: {
          pk: { field: 'pk', composite: ['origin'] },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type AppOriginItem = EntityItem<ReturnType<typeof createAppOriginEntity>>;
