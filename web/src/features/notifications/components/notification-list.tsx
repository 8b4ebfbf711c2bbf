import type { Notification } from '../api/notification-keys';
import styles from './notification-list.module.css';
import { describeNotification, notificationHref } from './notification-text';

const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A list of notifications, each a link to what it is about. */
export function NotificationList({ items, label }: { items: readonly Notification[]; label: string }) {
  return (
    <ul className={styles.list} aria-label={label}>
      {items.map((notification) => (
        <li key={notification.id} className={styles.item} data-unseen={!notification.seen}>
          <a className={styles.link} href={notificationHref(notification)}>
            <span className={styles.sentence}>{describeNotification(notification)}</span>
            <time className={styles.time} dateTime={notification.updatedAt}>
              {timeFormat.format(new Date(notification.updatedAt))}
            </time>
          </a>
        </li>
      ))}
    </ul>
  );
}
