import type { Db } from './db/service';
import { mailNotification } from './notification-mail';
import type { NotificationEvent, NotificationWrites } from './notifications';
import { mayBeListening, pushUnseenCounts } from './realtime';

/**
 * Tells the recipient, once the cause's transaction has committed: their open tabs get the new
 * unseen counts at once, and their inbox gets an email when they opted in. Neither fails the
 * request that caused it. The route needs the `realtime` and `email` capabilities. Someone with
 * no connection open costs no read: a fan-out page of 100 followers, mostly offline, would
 * otherwise query 100 connection lists.
 */
export async function announceNotification(
  db: Db,
  writes: NotificationWrites | null,
  event: Pick<NotificationEvent, 'kind' | 'actorId' | 'object'>,
): Promise<void> {
  if (!writes) return;
  await Promise.all([
    mayBeListening(writes.recipient) ? pushUnseenCounts(db, writes.recipient.userId) : 0,
    mailNotification(db, writes, event),
  ]);
}
