import { Entity, type EntityConfiguration, type EntityItem } from 'electrodb';
import { NOTIFICATION_APPS, NOTIFICATION_KINDS } from '../../../../shared/schemas/notifications';
import { SERVICE_NAME } from './service-name';
import { userIdAttribute } from './user-id';

export const NOTIFICATION_STATES = ['unseen', 'seen'] as const;

/**
 * One notification, in its recipient's partition. While unseen it is a group: later events of
 * the same kind on the same object join it (see notificationGroup) instead of adding items.
 * gsi1 lists a user's unseen or seen notifications newest first, by the time of their latest
 * event. Seen ones expire (`expiresAt`, the table's TTL) 90 days after they were seen; unseen
 * ones do not, so the unseen counts on the user item always match the items.
 */
export const createNotificationEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'notification', version: '1' },
      attributes: {
        userId: userIdAttribute,
        notificationId: { type: 'string', required: true },
        kind: { type: NOTIFICATION_KINDS, required: true },
        app: { type: NOTIFICATION_APPS, required: true },
        groupKey: { type: 'string', required: true },
        objectType: {
          type: ['story', 'user', 'publication', 'transfer', 'subscription', 'store-order'] as const,
          required: true,
        },
        objectId: { type: 'string', required: true },
        /** The object's title when the event happened (a story's), so a list needs no second read. */
        objectTitle: { type: 'string' },
        /** The platform's news about the object, in words; replaced while the notification is unseen. */
        objectDetail: { type: 'string' },
        /** The latest actors, newest first, at most three. */
        actorIds: { type: 'list', items: { type: 'string' }, required: true },
        actorCount: { type: 'number', required: true },
        state: { type: NOTIFICATION_STATES, required: true },
        createdAt: { type: 'string', required: true },
        updatedAt: { type: 'string', required: true },
        seenAt: { type: 'string' },
        expiresAt: { type: 'number' },
      },
      indexes: {
        byId: {
          pk: { field: 'pk', composite: ['userId'] },
          sk: { field: 'sk', composite: ['notificationId'], casing: 'none' },
        },
        byState: {
          index: 'gsi1',
          pk: { field: 'gsi1pk', composite: ['userId', 'state'] },
          sk: { field: 'gsi1sk', composite: ['updatedAt', 'notificationId'], casing: 'none' },
        },
      },
    },
    config,
  );

export type NotificationItem = EntityItem<ReturnType<typeof createNotificationEntity>>;

/**
 * Points from (recipient, group key) to the group's open, unseen notification. It exists exactly
 * while that notification is unseen: made with it, removed in the transaction that marks it
 * seen, so the next event on the same object starts a new notification.
 */
export const createNotificationGroupEntity = (config?: EntityConfiguration) =>
  new Entity(
    {
      model: { service: SERVICE_NAME, entity: 'notificationGroup', version: '1' },
      attributes: {
        userId: userIdAttribute,
        groupKey: { type: 'string', required: true },
        notificationId: { type: 'string', required: true },
      },
      indexes: {
        byGroup: {
          pk: { field: 'pk', composite: ['userId'] },
          sk: { field: 'sk', composite: ['groupKey'], casing: 'none' },
        },
      },
    },
    config,
  );
