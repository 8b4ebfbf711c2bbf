import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

/** An account. Username and email uniqueness live in identity claims, written in the same transaction. */
export const createUserEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'user', version: '1' },
      attributes: {
        userId: userIdAttribute,
        username: { type: 'string', required: true },
        name: { type: 'string', default: '' },
        email: { type: 'string' },
        emailVerified: { type: 'boolean', default: false },
        imageUrl: { type: 'string' },
        hasOwnImageUrl: { type: 'boolean', default: false },
        websiteUrl: { type: 'string' },
        isSuperUser: { type: 'boolean', default: false },
        /** UserSettings (shared/schemas/account.ts), merged on upsert. */
        settings: { type: 'any' },
        /** EmailPreferences; absent means the defaults. */
        emailPreferences: { type: 'any' },
        numUnseenNotifications: { type: 'number', default: 0 },
        ssoAppNumUnseenNotifications: { type: 'number', default: 0 },
        /** Kept in the same transaction as each follow item; absent on accounts older than follows (read as 0). */
        followerCount: { type: 'number', default: 0 },
        followingCount: { type: 'number', default: 0 },
        createdAt: { type: 'string', required: true },
        lastLoginAt: { type: 'string', required: true },
        /**
         * Epoch seconds until which a realtime connection of theirs may be open: the expiry of the
         * last one opened (functions/lib/realtime.ts). Absent or past, nobody is listening, and a
         * push skips the query for their connections: most of a publication's 100,000 followers.
         */
        realtimeUntil: { type: 'number' },
      },
      indexes: {
        byUserId: {
          pk: { field: 'pk', composite: ['userId'] },
          sk: { field: 'sk', composite: [] },
        },
      },
    },
    config,
  );

export type UserItem = EntityItem<ReturnType<typeof createUserEntity>>;
