import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/**
 * An account at an outside identity provider (OpenID Connect issuer + subject) linked to one
 * of our users. Created with a not-exists condition, so one provider account links to exactly
 * one user even when two first logins race.
 */
export const createExternalIdentityEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'externalIdentity', version: '1' },
      attributes: {
        /** The ID token's `iss`, exactly as the provider writes it. */
        issuer: { type: 'string', required: true },
        /** The ID token's `sub`: stable per provider account (an email is not). */
        subject: { type: 'string', required: true },
        userId: userIdAttribute,
        /** The email the provider reported at linking time, for support only (not used to log in). */
        email: { type: 'string' },
        /** The provider's public handle (Twitter's username), kept fresh at each login, so the account page can name it. */
        handle: { type: 'string' },
        createdAt: { type: 'string', required: true },
        lastLoginAt: { type: 'string', required: true },
      },
      indexes: {
        // OpenID Connect subjects are case-sensitive: the key keeps their case.
        byIssuerSubject: {
          pk: { field: 'pk', composite: ['issuer', 'subject'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
        /** A user's linked outside logins (account deletion removes them). */
        byUser: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['userId'] },
          sk: { field: 'gsi1sk', composite: ['createdAt'] },
        },
      },
    },
    config,
  );

export type ExternalIdentityItem = EntityItem<ReturnType<typeof createExternalIdentityEntity>>;
