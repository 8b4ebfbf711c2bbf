import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * One item per unique identity (a username or an email, lower-cased): creating it with a
 * not-exists condition inside the account's transaction is what makes the identity unique, so
 * two people racing for one name cannot both win.
 */
export const createIdentityClaimEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'identityClaim', version: '1' },
      attributes: {
        kind: { type: ['username', 'email'] as const, required: true },
        value: { type: 'string', required: true },
        userId: userIdAttribute,
        createdAt: { type: 'string', required: true },
      },
      indexes: {
        byIdentity: {
          pk: { field: 'pk', composite: ['kind', 'value'] },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type IdentityClaimItem = EntityItem<ReturnType<typeof createIdentityClaimEntity>>;
