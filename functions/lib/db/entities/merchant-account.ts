import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { STORE_IMAGE_PROPERTIES } from './product-stock';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

export const MERCHANT_GATEWAY_ENVIRONMENTS = ['local', 'sandbox', 'production'] as const;

/**
 * A merchant's shop: who owns it, how it is named and addressed, its currency, and which
 * Braintree account is connected (never the keys: those are sealed in merchantGatewayKeys, which
 * only the functions that charge may open). One per person (merchantOwner) and one per handle
 * (merchantHandle): the three are made in one transaction.
 */
export const createMerchantAccountEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'merchantAccount', version: '1' },
      attributes: {
        merchantAccountId: { type: 'string', required: true },
        ownerId: userIdAttribute,
        handle: { type: 'string', required: true },
        shopName: { type: 'string', required: true },
        description: { type: 'string', required: true, default: '' },
        currency: { type: 'string', required: true },
        logo: { type: 'map', properties: STORE_IMAGE_PROPERTIES },
        gateway: {
          type: 'map',
          properties: {
            environment: { type: MERCHANT_GATEWAY_ENVIRONMENTS, required: true },
            merchantId: { type: 'string', required: true },
            connectedAt: { type: 'string', required: true },
          },
        },
        /**
         * When the shop closed: its owner deleted their account (a shop billing subscribers
         * refuses that first). A closed shop is neither shown nor sold; its subscriptions' and
         * orders' records stay, and its handle stays taken so old links say it is closed.
         */
        closedAt: { type: 'string' },
        createdAt: { type: 'string', required: true },
        updatedAt: { type: 'string', required: true },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['merchantAccountId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type MerchantAccountItem = EntityItem<ReturnType<typeof createMerchantAccountEntity>>;

/** A shop handle's owner: makes handles unique (a conditional create in the registering transaction). */
export const createMerchantHandleEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'merchantHandle', version: '1' },
      attributes: {
        handle: { type: 'string', required: true },
        merchantAccountId: { type: 'string', required: true },
      },
      indexes: {
        byHandle: {
          pk: { field: 'pk', composite: ['handle'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

/** A person's merchant account, read with a consistent GetItem (an index would lag just after registering). */
export const createMerchantOwnerEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'merchantOwner', version: '1' },
      attributes: {
        ownerId: userIdAttribute,
        merchantAccountId: { type: 'string', required: true },
      },
      indexes: {
        byOwner: {
          pk: { field: 'pk', composite: ['ownerId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

/**
 * A merchant's Braintree keys, sealed by envelope encryption (functions/lib/payments/merchant-keys.ts):
 * a data key encrypted by KMS (locally by the key under .data/) and the keys encrypted by it. Kept
 * apart from the account so reading a shop never loads them. Every merchant's are listed through
 * gsi1 (one partition), which is how the daily reconciliation finds the shops with a gateway.
 */
export const createMerchantGatewayKeysEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'merchantGatewayKeys', version: '1' },
      attributes: {
        merchantAccountId: { type: 'string', required: true },
        sealed: {
          type: 'map',
          required: true,
          properties: {
            algorithm: { type: ['AES-256-GCM'] as const, required: true },
            keyId: { type: 'string', required: true },
            encryptedDataKey: { type: 'string', required: true },
            iv: { type: 'string', required: true },
            tag: { type: 'string', required: true },
            ciphertext: { type: 'string', required: true },
          },
        },
        updatedAt: { type: 'string', required: true },
        /** The one value of the listing's partition (gsi1), set on every write. */
        listing: { type: ['connected'] as const, required: true, default: 'connected' },
      },
      indexes: {
        byMerchant: {
          pk: { field: 'pk', composite: ['merchantAccountId'], casing: 'none' },
          sk: { field: 'sk', composite: [] },
        },
        /** Every merchant with a connected gateway, one partition: what the daily reconciliation walks. */
        connected: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['listing'], casing: 'none' },
          sk: { field: 'gsi1sk', composite: ['merchantAccountId'], casing: 'none' },
        },
      },
    },
    config,
  );
