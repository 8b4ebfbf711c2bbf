import { createHash } from 'node:crypto';
import * as z from '../../shared/zod';
import { announceNotification } from './announce-notification';
import { lostRace, retryContendedWrite } from './contended-writes';
import { getBatch } from './db/batches';
import type { NotificationItem } from './db/entities/notification';
import type { Db } from './db/service';
import { getUsers } from './db/users';
import { logger } from './logger';
import {
  groupKeyOf,
  type NotificationEvent,
  type NotificationWrites,
  PLATFORM_ACTOR_ID,
  planNotification,
} from './notifications';
import { sendWorkMessages, type WorkMessage } from './work-queue';
import { inGroups } from './in-groups';

/**
 * Notification fan-out (docs/architecture.md, "Notification fan-out"): one event that tells many
 * people goes to the notification-fanout queue as one message; its consumer reads the audience
 * a stretch at a time and sends one message per page of recipients, and each page's consumer
 * writes, pushes and mails that page. Whoever found the news (the hourly ranking job) sends one
 * message per event, so its time does not grow with how many people follow anything.
 *
 * Delivery is at least once (a standard queue): every step may run twice, so each new
 * notification's id is derived from the event's own id, and its write is conditioned on that
 * notification not existing yet. A second delivery finds it and writes nothing.
 */

/** Recipients per page message: one BatchGetItem of their users, and three transactions at most. */
export const RECIPIENTS_PER_PAGE = 100;
/**
 * Recipients one expand message reads before handing the rest to a message of its own: a few
 * Queries and five SendMessageBatch calls, seconds at most, so the first pages are being written
 * while the audience is still being read, and no single invocation grows with the audience.
 */
export const RECIPIENTS_PER_EXPANSION = 5_000;
/** DynamoDB's most actions in one TransactWriteItems. */
export const TRANSACTION_ACTION_LIMIT = 100;
/** Transactions of one page in flight at once. */
const TRANSACTIONS_AT_ONCE = 4;
/** Recipients announced (pushed, mailed) at once. */
const ANNOUNCE_AT_ONCE = 8;

/** Who an event tells: today the followers of a publication. */
const audienceSchema = z.object({ type: z.literal('publication-followers'), slug: z.string().check(z.minLength(1)) });

/** The event as the queue carries it: always the platform's news (blocks between people do not apply). */
const fanOutEventSchema = z.object({
  /** Unique per event and stable across deliveries: the new notifications' ids derive from it. */
  id: z.string().check(z.minLength(1), z.maxLength(300)),
  kind: z.literal('publication-rose'),
  object: z.object({
    type: z.literal('publication'),
    id: z.string().check(z.minLength(1)),
    title: z.optional(z.string()),
    detail: z.optional(z.string()),
  }),
  at: z.iso.datetime(),
  audience: audienceSchema,
});

export type FanOutEvent = z.infer<typeof fanOutEventSchema>;

export const fanOutMessageSchema = z.discriminatedUnion('step', [
  /** Read the audience from `cursor` (the start when null) and send its pages. */
  z.object({ step: z.literal('expand'), event: fanOutEventSchema, cursor: z.nullable(z.string()) }),
  /** Write, push and mail these recipients. */
  z.object({
    step: z.literal('deliver'),
    event: fanOutEventSchema,
    recipientIds: z.array(z.string().check(z.minLength(1))).check(z.minLength(1), z.maxLength(RECIPIENTS_PER_PAGE)),
  }),
]);

export type FanOutMessage = z.infer<typeof fanOutMessageSchema>;

/** A page that could not be written within the attempts: its message fails and is delivered again. */
export class FanOutIncomplete extends Error {
  override readonly name = 'FanOutIncomplete';
}

/**
 * The id of the notification an event starts for each recipient: the same for every recipient
 * (it is unique within their own partition) and on every delivery, so writing it again is
 * refused. Twelve characters of base64url, as the random ids are.
 */
export function fanOutNotificationId(eventId: string): string {
  return createHash('sha256').update(`fan-out:${eventId}`).digest('base64url').slice(0, 12);
}

/** The first message of an event: its audience from the start. */
export function expandMessage(event: FanOutEvent): WorkMessage {
  return { body: { step: 'expand', event, cursor: null } satisfies FanOutMessage };
}

/**
 * What an expand message sends for a stretch of the audience: one page message per
 * RECIPIENTS_PER_PAGE recipients, and, when the audience goes on, the expand message that reads on.
 */
export function expansionMessages(event: FanOutEvent, recipientIds: readonly string[], nextCursor: string | null): WorkMessage[] {
  const pages: WorkMessage[] = [];
  for (let start = 0; start < recipientIds.length; start += RECIPIENTS_PER_PAGE) {
    const page = recipientIds.slice(start, start + RECIPIENTS_PER_PAGE);
    pages.push({ body: { step: 'deliver', event, recipientIds: page } satisfies FanOutMessage });
  }
  const rest: WorkMessage[] =
    nextCursor === null ? [] : [{ body: { step: 'expand', event, cursor: nextCursor } satisfies FanOutMessage }];
  return [...pages, ...rest];
}

/**
 * Groups items into transactions of at most `limit` actions, in order, each item whole (an item
 * is one recipient's writes: three for a new notification, one for a refreshed one).
 */
export function packTransactions<T>(
  items: readonly T[],
  actionsOf: (item: T) => number,
  limit = TRANSACTION_ACTION_LIMIT,
): T[][] {
  const packed: T[][] = [];
  let current: T[] = [];
  let actions = 0;
  for (const item of items) {
    const size = actionsOf(item);
    if (size > limit) throw new RangeError(`An item of ${size} actions does not fit a transaction of ${limit}`);
    if (actions + size > limit) {
      packed.push(current);
      current = [];
      actions = 0;
    }
    current.push(item);
    actions += size;
  }
  if (current.length > 0) packed.push(current);
  return packed;
}

/** The event as one recipient's notification records it. */
function notificationEventOf(event: FanOutEvent, recipientId: string): NotificationEvent {
  return {
    recipientId,
    actorId: PLATFORM_ACTOR_ID,
    kind: event.kind,
    object: event.object,
    at: new Date(event.at),
    byPlatform: true,
  };
}

/** One stretch of the audience, and where the next starts (null at its end). */
async function readAudience(db: Db, event: FanOutEvent, cursor: string | null) {
  const { data, cursor: next } = await db.entities.publicationFollow.query
    .bySlug({ slug: event.audience.slug })
    .go({ limit: RECIPIENTS_PER_EXPANSION, attributes: ['userId'], ...(cursor ? { cursor } : {}) });
  return { recipientIds: data.map(({ userId }) => userId), nextCursor: next ?? null };
}

/**
 * Sends the first message of each event (the job's whole part): one SendMessageBatch per ten
 * events, whatever their audiences.
 */
export async function enqueueFanOut(events: readonly FanOutEvent[]): Promise<void> {
  await sendWorkMessages('notification-fanout', events.map(expandMessage));
}

/** Reads a stretch of the event's audience and sends its pages (and the message that reads on). */
export async function expandFanOut(db: Db, event: FanOutEvent, cursor: string | null): Promise<{ pages: number; more: boolean }> {
  const { recipientIds, nextCursor } = await readAudience(db, event, cursor);
  const messages = expansionMessages(event, recipientIds, nextCursor);
  await sendWorkMessages('notification-fanout', messages);
  return { pages: messages.length - (nextCursor === null ? 0 : 1), more: nextCursor !== null };
}

interface Planned {
  recipientId: string;
  writes: NotificationWrites;
}

/**
 * What each recipient's notifications look like now, read in batches (consistent, as
 * prepareNotification reads one person's), and the writes that record the event for each: null
 * for those to skip (the account is gone, the news is not new to them, or an earlier delivery of
 * this event already recorded it).
 */
async function planPage(db: Db, event: FanOutEvent, recipientIds: readonly string[]): Promise<Planned[]> {
  const oursId = fanOutNotificationId(event.id);
  const groupKey = groupKeyOf({ kind: event.kind, object: event.object });
  const [users, groups] = await Promise.all([
    getUsers(db, { userIds: recipientIds }),
    getBatch({
      keys: recipientIds.map((userId) => ({ userId, groupKey })),
      send: async (keys) => {
        const { data, unprocessed } = await db.entities.notificationGroup.get(keys).go({ consistent: true });
        return { data, unprocessed: unprocessed.map(({ userId }) => ({ userId, groupKey })) };
      },
      what: 'notification groups',
    }),
  ]);
  const userOf = new Map(users.map((user) => [user.userId, user]));
  const groupOf = new Map(groups.map((group) => [group.userId, group]));
  const wanted = recipientIds.flatMap((userId) => {
    const open = groupOf.get(userId)?.notificationId;
    return [{ userId, notificationId: oursId }, ...(open && open !== oursId ? [{ userId, notificationId: open }] : [])];
  });
  const notifications = await getBatch({
    keys: wanted,
    send: async (keys) => {
      const { data, unprocessed } = await db.entities.notification.get(keys).go({ consistent: true });
      return {
        data,
        unprocessed: unprocessed.map(({ userId, notificationId }) => ({ userId, notificationId })),
      };
    },
    what: 'notifications',
  });
  const notificationOf = new Map<string, NotificationItem>(
    notifications.map((item) => [`${item.userId}/${item.notificationId}`, item]),
  );

  return recipientIds.flatMap((recipientId): Planned[] => {
    // An earlier delivery of this event recorded it (seen since or not): nothing more to write.
    if (notificationOf.has(`${recipientId}/${oursId}`)) return [];
    const group = groupOf.get(recipientId) ?? null;
    const writes = planNotification(
      notificationEventOf(event, recipientId),
      {
        recipient: userOf.get(recipientId) ?? null,
        blocked: false,
        group,
        open: group ? (notificationOf.get(`${recipientId}/${group.notificationId}`) ?? null) : null,
      },
      oursId,
    );
    return writes ? [{ recipientId, writes }] : [];
  });
}

export interface PageReport {
  /** New notifications written. */
  started: number;
  /** Unseen notifications that now say the fresher news. */
  refreshed: number;
  /** Recipients with nothing to write: gone, told already, or nothing new to them. */
  skipped: number;
}

/**
 * Writes one page of recipients' notifications, then pushes their new counts and mails those who
 * want notification emails (announceNotification, as for any notification). The writes go in
 * transactions of up to 33 recipients each, with exactly the conditions and the unseen count a
 * single notification's transaction has (planNotification). A transaction cancelled by a
 * condition (another event or a mark got there first) or a collision is read again and retried
 * for its recipients; the others stand. Throws FanOutIncomplete when some are still unwritten
 * after the contended-write policy's attempts: the message fails, and its next delivery writes
 * only those.
 */
export async function deliverFanOutPage(db: Db, event: FanOutEvent, recipientIds: readonly string[]): Promise<PageReport> {
  let pending = [...new Set(recipientIds)];
  const report: PageReport = { started: 0, refreshed: 0, skipped: 0 };
  const announcement = { kind: event.kind, actorId: PLATFORM_ACTOR_ID, object: event.object };
  await retryContendedWrite(
    {
      what: 'writing these notifications',
      giveUp: (cause) => new FanOutIncomplete(`${pending.length} recipient(s) of ${event.id} are still unwritten`, { cause }),
    },
    async () => {
      const planned = await planPage(db, event, pending);
      report.skipped += pending.length - planned.length;
      const retry: string[] = [];
      const committed: Planned[] = [];
      const transactions = packTransactions(planned, ({ writes }) => (writes.startsGroup ? 3 : 1));
      await inGroups(transactions, TRANSACTIONS_AT_ONCE, async (chunk) => {
        const result = await db.transaction.write((entities) => chunk.flatMap(({ writes }) => writes.commits(entities))).go();
        if (result.canceled) retry.push(...chunk.map(({ recipientId }) => recipientId));
        else committed.push(...chunk);
      });
      for (const { writes } of committed) {
        if (writes.startsGroup) report.started += 1;
        else report.refreshed += 1;
      }
      // Once committed, whatever happens to the rest: their open tabs and inboxes hear of it now.
      await inGroups(committed, ANNOUNCE_AT_ONCE, async ({ writes }) => {
        try {
          await announceNotification(db, writes, announcement);
        } catch (error) {
          // Never undoes the notification, which is in the centre either way.
          logger.warn('Could not announce a notification', { eventId: event.id, errorName: (error as Error).name });
        }
      });
      pending = retry;
      return retry.length > 0 ? lostRace() : undefined;
    },
  );
  return report;
}
