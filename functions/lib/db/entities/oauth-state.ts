import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';

/**
 * One OAuth/OpenID Connect login in flight, keyed by the SHA-256 of its `state`. It holds what
 * the callback needs to finish that login (PKCE verifier, nonce, where to go afterwards) and the
 * hash of the browser-binding cookie, so only the browser that started the login can finish it.
 * Spent once by a conditional update; lives 10 minutes.
 */
export const createOauthStateEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'oauthState', version: '1' },
      attributes: {
        stateHash: { type: 'string', required: true },
        provider: { type: ['google', 'twitter'] as const, required: true },
        nonce: { type: 'string', required: true },
        codeVerifier: { type: 'string', required: true },
        /** SHA-256 of the random value in the browser-binding cookie. */
        bindingHash: { type: 'string', required: true },
        /** Same-origin path to land on after the login. */
        returnTo: { type: 'string', required: true },
        createdAt: { type: 'string', required: true },
        usedAt: { type: 'string' },
        /** Epoch seconds; the TTL attribute. Code checks it too, since TTL deletes late. */
        expiresAt: { type: 'number', required: true },
      },
      indexes: {
        byStateHash: {
          pk: { field: 'pk', composite: ['stateHash'] },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type OauthStateItem = EntityItem<ReturnType<typeof createOauthStateEntity>>;
