import { randomBytes } from 'node:crypto';
import type {
  Notification,
  NotificationApp,
  NotificationKind,
  NotificationPage,
  UnseenCounts,
} from '../../shared/schemas/notifications';
import { lostRace, retryContendedWrite } from './contended-writes';
import { checkedCursor } from './db/cursors';
import type { NotificationItem } from './db/entities/notification';
import type { UserItem } from './db/entities/user';
import { failedConditions, type TransactionWriteResult } from './db/errors';
import type { Db } from './db/service';
import { getUser, getUsers } from './db/users';

/** Seen notifications are kept this long after they were seen (the table's TTL removes them). */
export const SEEN_NOTIFICATION_DAYS = 90;
/** A group shows its latest actors by name: "Ana, Bo and 3 others". */
export const ACTORS_SHOWN = 3;
/** Notifications marked seen per transaction: two writes each plus the count, under DynamoDB's 100. */
const MARK_SEEN_PER_TRANSACTION = 40;

/** Something that happened to `recipientId` because of `actorId`. */
export interface NotificationEvent {
  recipientId: string;
  actorId: string;
  kind: NotificationKind;
  /** Defaults to the platform's own app. */
  app?: NotificationApp;
  object: {
    type: 'story' | 'user' | 'publication' | 'transfer' | 'subscription' | 'store-order';
    id: string;
    title?: string | undefined;
    detail?: string | undefined;
  };
  at: Date;
  /**
   * Sets events of one kind on one object apart: only those with the same groupId share a
   * notification. A comment's notification names its comment, so each reply is one of its own
   * (and the bell counts replies), and a retried write cannot record one reply twice.
   */
  groupId?: string;
  /** The platform itself acted (an editorial decision by a superuser): blocks between people do not apply. */
  byPlatform?: boolean;
}

type WriteEntities = Parameters<Parameters<Db['transaction']['write']>[0]>[0];
type WriteCommit =
  | ReturnType<ReturnType<WriteEntities['notification']['create']>['commit']>
  | ReturnType<ReturnType<WriteEntities['notificationGroup']['put']>['commit']>;

/**
 * The writes that record an event for its recipient, made to go into the transaction of the
 * event's cause (the like, the follow), so a notification exists exactly when its cause does
 * and the unseen count moves with it.
 */
export interface NotificationWrites {
  /** A new notification (not an event joining an unseen one): the one worth an email. */
  startsGroup: boolean;
  recipient: UserItem;
  /** What the recipient's unseen counts go up by: empty when the event joins an unseen notification. */
  unseenIncrement: Partial<Record<UnseenCounter, number>>;
  /**
   * The writes, including the count on the recipient's user item unless the cause writes that
   * item itself (a transaction may write an item once): then it adds `unseenIncrement` to its
   * own write and passes `{ count: false }`.
   */
  commits(entities: WriteEntities, options?: { count?: boolean }): WriteCommit[];
  /**
   * The same writes as one plain write, when they are one item's (joining an unseen
   * notification), for an event with no cause to share a transaction with: concurrent
   * transactions on one item cancel each other (TransactionConflict), plain writes queue.
   */
  write?: (db: Db) => Promise<void>;
}

type UnseenCounter = 'numUnseenNotifications' | 'ssoAppNumUnseenNotifications';

/** The user-item counter a notification of `app` counts in. */
function unseenCounter(app: NotificationApp): UnseenCounter {
  return app === 'toppubs' ? 'numUnseenNotifications' : 'ssoAppNumUnseenNotifications';
}

function newNotificationId(): string {
  return randomBytes(9).toString('base64url');
}

/** Events of one kind on one object share a notification while it is unseen. */
export function groupKeyOf(event: Pick<NotificationEvent, 'kind' | 'object' | 'groupId'>): string {
  const key = `${event.kind}:${event.object.type}:${event.object.id}`;
  return event.groupId === undefined ? key : `${key}:${event.groupId}`;
}

/** The latest actors first, each once, at most ACTORS_SHOWN. */
export function withLatestActor(actorIds: readonly string[], actorId: string): string[] {
  return [actorId, ...actorIds.filter((id) => id !== actorId)].slice(0, ACTORS_SHOWN);
}

/** What a recipient's notifications look like now, as far as one event needs to know. */
export interface RecipientState {
  /** Null when the account no longer exists. */
  recipient: UserItem | null;
  /** The recipient blocked the actor. */
  blocked: boolean;
  /** The pointer to the open notification of the event's group, if there is one. */
  group: { notificationId: string } | null;
  /** The notification the pointer names (read only when there is a pointer). */
  open: NotificationItem | null;
}

/**
 * Reads what the recipient's notifications look like now and answers the writes that record
 * `event`, or null when nobody is to be told: the actor is the recipient, the recipient blocked
 * the actor or no longer exists, or the actor is already among the latest of the unseen group
 * (liking again after an unlike says nothing new). A transaction cancelled on these writes'
 * conditions lost a race with another event or a mark: read again and retry.
 */
export async function prepareNotification(db: Db, event: NotificationEvent): Promise<NotificationWrites | null> {
  const { recipientId, actorId } = event;
  if (recipientId === actorId) return null;
  const groupKey = groupKeyOf(event);
  const [recipient, { data: block }, { data: group }] = await Promise.all([
    getUser(db, { userId: recipientId }),
    db.entities.block.get({ userId: recipientId, blockedUserId: actorId }).go(),
    db.entities.notificationGroup.get({ userId: recipientId, groupKey }).go({ consistent: true }),
  ]);
  const open = group
    ? (await db.entities.notification.get({ userId: recipientId, notificationId: group.notificationId }).go({ consistent: true }))
        .data
    : null;
  return planNotification(event, { recipient, blocked: Boolean(block), group, open });
}

/**
 * The writes that record `event` given what was read (prepareNotification reads one recipient;
 * the fan-out consumer reads a page of them in batches): the same rules and the same
 * conditions either way. A new notification gets `notificationId` (random unless the caller
 * derives one from its own ids, so that writing it a second time is refused).
 */
export function planNotification(
  event: NotificationEvent,
  { recipient, blocked, group, open }: RecipientState,
  notificationId: string = newNotificationId(),
): NotificationWrites | null {
  const { recipientId, actorId } = event;
  if (recipientId === actorId) return null;
  if (!recipient || (blocked && !event.byPlatform)) return null;
  const groupKey = groupKeyOf(event);
  const at = event.at.toISOString();

  if (group && open?.state === 'unseen') {
    const joining = !open.actorIds.includes(actorId);
    const detail = event.object.detail;
    // The actor is already among the latest: nothing new, unless it is the platform's fresher news.
    if (!joining && (detail === undefined || detail === open.objectDetail)) return null;
    const key = { userId: recipientId, notificationId: open.notificationId };
    const changes = joining
      ? { actorIds: withLatestActor(open.actorIds, actorId), updatedAt: at }
      : { objectDetail: detail as string, updatedAt: at };
    // Only while it is unseen (a seen one starts a new group). Not on condition that nothing else
    // joined since it was read: on a viral story every like joins the same notification, and that
    // condition made them all collide (docs/operations.md, "Hot items"). The count is ADDed, so it
    // stays exact; two joining at once may each leave the latest names without the other's.
    return {
      startsGroup: false,
      recipient,
      unseenIncrement: {},
      commits: ({ notification }) => [
        notification
          .patch(key)
          .set(changes)
          .add({ actorCount: joining ? 1 : 0 })
          .where(({ state }, { eq }) => eq(state, 'unseen'))
          .commit(),
      ],
      write: async (db) => {
        await db.entities.notification
          .patch(key)
          .set(changes)
          .add({ actorCount: joining ? 1 : 0 })
          .where(({ state }, { eq }) => eq(state, 'unseen'))
          .go({ response: 'none' });
      },
    };
  }

  const app = event.app ?? 'toppubs';
  const unseenIncrement = { [unseenCounter(app)]: 1 };
  return {
    startsGroup: true,
    recipient,
    unseenIncrement,
    commits: ({ notification, notificationGroup, user }, options = {}) => [
      notificationGroup
        .put({ userId: recipientId, groupKey, notificationId })
        .where((attributes, { eq, notExists }) =>
          group ? eq(attributes.notificationId, group.notificationId) : notExists(attributes.notificationId),
        )
        .commit(),
      notification
        .create({
          userId: recipientId,
          notificationId,
          kind: event.kind,
          app,
          groupKey,
          objectType: event.object.type,
          objectId: event.object.id,
          ...(event.object.title ? { objectTitle: event.object.title } : {}),
          ...(event.object.detail ? { objectDetail: event.object.detail } : {}),
          actorIds: [actorId],
          actorCount: 1,
          state: 'unseen',
          createdAt: at,
          updatedAt: at,
        })
        .commit(),
      ...(options.count === false ? [] : [user.patch({ userId: recipientId }).add(unseenIncrement).commit()]),
    ],
  };
}

/** The actor of the platform's own news (a followed publication rose): no person, so no name or avatar. */
export const PLATFORM_ACTOR_ID = 'platform';
/**
 * Records an event that has no cause of its own to share a transaction with (the platform's
 * news): prepares the writes and commits them alone, reading again when it lost a race with
 * another event or a mark. Answers the writes, for announceNotification.
 */
export async function recordNotification(db: Db, event: NotificationEvent): Promise<NotificationWrites | null> {
  return retryContendedWrite({ what: 'notifying this person' }, async () => {
    const writes = await prepareNotification(db, event);
    if (!writes) return null;
    // A failed condition of the plain write (the notification was seen meanwhile) is a lost race too.
    if (writes.write) return writes.write(db).then(() => writes);
    const result = await db.transaction.write((entities) => writes.commits(entities)).go();
    return result.canceled ? lostRace(result) : writes;
  });
}

/**
 * Whether a cancelled transaction failed on its notification writes (which start at `offset`):
 * a race with another event on the same group, worth reading again and retrying.
 */
export function notificationRaceLost(result: TransactionWriteResult, offset: number): boolean {
  return failedConditions(result).some((index) => index >= offset);
}

export function unseenCountsOf(
  user: Pick<UserItem, 'numUnseenNotifications' | 'ssoAppNumUnseenNotifications'> | null,
): UnseenCounts {
  const numUnseenNotifications = Math.max(0, user?.numUnseenNotifications ?? 0);
  const ssoAppNumUnseenNotifications = Math.max(0, user?.ssoAppNumUnseenNotifications ?? 0);
  return {
    numUnseenNotifications,
    ssoAppNumUnseenNotifications,
    total: numUnseenNotifications + ssoAppNumUnseenNotifications,
  };
}

export async function readUnseenCounts(db: Db, userId: string): Promise<UnseenCounts> {
  return unseenCountsOf(await getUser(db, { userId }));
}

function toNotification(item: NotificationItem, actors: ReadonlyMap<string, UserItem>): Notification {
  return {
    id: item.notificationId,
    kind: item.kind,
    app: item.app,
    object: { type: item.objectType, id: item.objectId, title: item.objectTitle ?? null, detail: item.objectDetail ?? null },
    actors: item.actorIds.flatMap((id) => {
      const actor = actors.get(id);
      return actor
        ? [{ userId: actor.userId, username: actor.username, name: actor.name ?? '', imageUrl: actor.imageUrl ?? null }]
        : [];
    }),
    actorCount: item.actorCount,
    seen: item.state === 'seen',
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/**
 * A page of the user's unseen or seen notifications, newest event first: one Query, and one
 * BatchGetItem for the people named. Seen ones past their keeping time are left out even
 * before the TTL removes them (it can lag by days).
 */
export async function listNotifications(
  db: Db,
  options: { userId: string; state: 'unseen' | 'seen'; limit: number; cursor?: string | undefined; now: Date },
): Promise<NotificationPage> {
  const query = db.entities.notification.query.byState({ userId: options.userId, state: options.state });
  const cursor = checkedCursor(options.cursor, query, 'gsi1pk');
  const page = await query.go({ order: 'desc', limit: options.limit, ...(cursor ? { cursor } : {}) });
  const nowSeconds = Math.floor(options.now.getTime() / 1000);
  const items = page.data.filter((item) => item.expiresAt === undefined || item.expiresAt > nowSeconds);
  const actors = await getUsers(db, { userIds: items.flatMap((item) => item.actorIds) });
  const byId = new Map(actors.map((actor) => [actor.userId, actor]));
  return { items: items.map((item) => toNotification(item, byId)), nextCursor: page.cursor ?? null };
}

async function readUnseen(db: Db, userId: string, notificationIds: readonly string[]): Promise<NotificationItem[]> {
  if (notificationIds.length === 0) return [];
  const { data } = await db.entities.notification
    .get(notificationIds.map((notificationId) => ({ userId, notificationId })))
    .go({ consistent: true });
  return data.filter((item) => item.state === 'unseen');
}

/**
 * Marks the user's notifications among `ids` seen; answers how many changed. Ids are looked up
 * in the user's own partition only, so another user's id matches nothing and is ignored, as is
 * an id already seen. Each notification's group pointer goes in the same transaction (the next
 * event starts a new notification) and the counts move by what was marked.
 */
export async function markSeen(db: Db, options: { userId: string; ids: readonly string[]; now: Date }): Promise<number> {
  const { userId, now } = options;
  const seenAt = now.toISOString();
  const expiresAt = Math.floor(now.getTime() / 1000) + SEEN_NOTIFICATION_DAYS * 86_400;
  let pending = [...new Set(options.ids)];
  let marked = 0;
  if (pending.length === 0) return 0;
  return retryContendedWrite({ what: 'marking these notifications seen' }, async () => {
    const unseen = await readUnseen(db, userId, pending);
    const retry: string[] = [];
    for (let start = 0; start < unseen.length; start += MARK_SEEN_PER_TRANSACTION) {
      const chunk = unseen.slice(start, start + MARK_SEEN_PER_TRANSACTION);
      const platform = chunk.filter((item) => unseenCounter(item.app) === 'numUnseenNotifications').length;
      const result = await db.transaction
        .write(({ notification, notificationGroup, user }) => [
          ...chunk.flatMap((item) => [
            notification
              .patch({ userId, notificationId: item.notificationId })
              .set({ state: 'seen', seenAt, expiresAt })
              .where(({ state }, { eq }) => eq(state, 'unseen'))
              .commit(),
            notificationGroup
              .delete({ userId, groupKey: item.groupKey })
              .where(
                (attributes, { eq, notExists }) =>
                  `${eq(attributes.notificationId, item.notificationId)} OR ${notExists(attributes.notificationId)}`,
              )
              .commit(),
          ]),
          user
            .patch({ userId })
            .add({ numUnseenNotifications: -platform, ssoAppNumUnseenNotifications: -(chunk.length - platform) })
            .commit(),
        ])
        .go();
      if (result.canceled) retry.push(...chunk.map((item) => item.notificationId));
      else marked += chunk.length;
    }
    // A chunk that lost a race (marked in another tab, a new event joining) is read again.
    pending = retry;
    return pending.length > 0 ? lostRace(`${pending.length} notifications changed meanwhile`) : marked;
  });
}
