import * as z from '../zod';
import { cursorQueryShape } from './common';

/**
 * The apps a notification can come from. The platform's own (the ranking site and its stories)
 * counts in `numUnseenNotifications`; the sibling apps signed in through single sign-on count
 * in `ssoAppNumUnseenNotifications`.
 */
export const NOTIFICATION_APPS = ['toppubs', 'transfer', 'store'] as const;
export type NotificationApp = (typeof NOTIFICATION_APPS)[number];

/**
 * What happened. Events of one kind on one object are grouped while unseen ("Ana and 4 others
 * liked your story"); a follow groups on the person followed. `publication-rose` is the
 * platform's news about a publication the recipient follows: it entered a board's top 100,
 * climbed 10 places or more, or became active again (the `detail` says which). The file-transfer
 * app's: a transfer was sent to the recipient, a recipient first downloaded the sender's files,
 * someone uploaded files through the recipient's file request (the `detail` says who and their
 * note), and a transfer's download limit was reached (from the platform);
 * its Pro plan's (and a shop's subscriptions'): a renewal failed (the subscription is past due) and a
 * payment went through again. The storefront's: a customer's order was paid (to the customer), a
 * sale (to the merchant, with the buyer as actor), and a refund of an order (to the customer: the
 * shop's name as title, the amount as detail). Story comments: someone commented on the
 * recipient's story, or replied to the recipient's comment (the story as object, the comment's
 * first words as detail; one notification per comment).
 */
export const NOTIFICATION_KINDS = [
  'story-liked',
  'user-followed',
  'story-author-claimed',
  'story-review-accepted',
  'publication-rose',
  'transfer-received',
  'transfer-downloaded',
  'transfer-request-upload',
  'transfer-download-limit-reached',
  'subscription-payment-failed',
  'subscription-payment-recovered',
  'store-order-confirmed',
  'store-sale',
  'store-refund',
  'subscription-refunded',
  'story-commented',
  'comment-replied',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const notificationActorSchema = z.strictObject({
  userId: z.string(),
  username: z.string(),
  name: z.string(),
  imageUrl: z.nullable(z.string()),
});

export const notificationSchema = z.strictObject({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  app: z.enum(NOTIFICATION_APPS),
  /** What the notification is about: a story, the recipient's own profile for a follow, or a publication (by slug). */
  object: z.strictObject({
    type: z.enum(['story', 'user', 'publication', 'transfer', 'subscription', 'store-order']),
    id: z.string(),
    title: z.nullable(z.string()),
    /** What happened to it, in words, for the platform's news: "climbed 12 places to #34 on Most followed". */
    detail: z.nullable(z.string()),
  }),
  /** The most recent people behind it, newest first (at most three); accounts since deleted are left out. */
  actors: z.array(notificationActorSchema),
  /** How many events the group holds: 5 for "Ana and 4 others". */
  actorCount: z.int().check(z.minimum(1)),
  seen: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationPageSchema = z.strictObject({
  items: z.array(notificationSchema),
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: z.nullable(z.string()),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const unseenCountsSchema = z.strictObject({
  /** Unseen notifications from the platform itself (stories, rankings). */
  numUnseenNotifications: z.int().check(z.minimum(0)),
  /** Unseen notifications from the sibling apps. */
  ssoAppNumUnseenNotifications: z.int().check(z.minimum(0)),
  total: z.int().check(z.minimum(0)),
});
export type UnseenCounts = z.infer<typeof unseenCountsSchema>;

export const notificationsScreenSchema = z.strictObject({
  unseen: notificationPageSchema,
  seen: notificationPageSchema,
  counts: unseenCountsSchema,
});

export const NOTIFICATIONS_PAGE_SIZE = 20;

export const notificationListQuerySchema = z.strictObject({
  ...cursorQueryShape,
  limit: z._default(
    z.pipe(
      z.coerce.number({ message: 'Must be a number' }).check(z.int('Must be a whole number'), z.minimum(1, 'Must be at least 1')),
      z.transform((limit) => Math.min(limit, 50)),
    ),
    NOTIFICATIONS_PAGE_SIZE,
  ),
});

/** At most this many ids per mark: one batch read and a few transactions. */
export const MAX_MARK_SEEN_IDS = 100;

export const markSeenBodySchema = z.strictObject({
  ids: z
    .array(z.string().check(z.minLength(1), z.maxLength(100)), { message: 'Send ids as a list of notification ids' })
    .check(z.minLength(1, 'Send at least one id'), z.maxLength(MAX_MARK_SEEN_IDS, `At most ${MAX_MARK_SEEN_IDS} ids at a time`)),
});

export const markSeenResultSchema = z.strictObject({
  /** How many of the ids were the caller's unseen notifications, now seen. */
  marked: z.int().check(z.minimum(0)),
  counts: unseenCountsSchema,
});
