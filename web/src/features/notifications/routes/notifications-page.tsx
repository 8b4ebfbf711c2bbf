import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { APP_NAME } from '@shared/constants';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { unseenNotificationCount, useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useNotificationsScreen } from '../api/get-notifications-screen';
import { useOlderSeenNotifications } from '../api/list-seen-notifications';
import { useMarkNotificationsSeen } from '../api/mark-notifications-seen';
import { notificationKeys } from '../api/notification-keys';
import { NotificationList } from '../components/notification-list';
import styles from '../components/notification-list.module.css';

/** /notifications : what happened to the signed-in user, new first, then earlier ones. */
export function NotificationsPage() {
  const { user, isPending: userPending } = useCurrentUser();
  const loginModal = useLoginModal();
  const queryClient = useQueryClient();
  const screen = useNotificationsScreen(user?.userId);
  const markSeen = useMarkNotificationsSeen();
  const older = useOlderSeenNotifications(user?.userId ?? '', screen.data?.seen.nextCursor ?? null);
  // A live push raised the bell while this page is open: show what arrived.
  const unseenCount = unseenNotificationCount(user);
  useEffect(() => {
    if (unseenCount > 0) void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  }, [unseenCount, queryClient]);

  let content;
  if (userPending) {
    content = <PageSpinner label="Loading your notifications" />;
  } else if (!user) {
    content = (
      <EmptyState title="Log in to see your notifications" icon="🔔">
        <Button onClick={loginModal.open}>Log in</Button>
      </EmptyState>
    );
  } else if (screen.isError) {
    content = (
      <ErrorState
        title="Your notifications could not be loaded"
        error={screen.error}
        onRetry={() => void queryClient.refetchQueries({ queryKey: notificationKeys.all })}
      />
    );
  } else if (!screen.data) {
    content = <PageSpinner label="Loading your notifications" />;
  } else {
    const { unseen, seen } = screen.data;
    const earlier = [...seen.items, ...(older.data?.pages.flatMap((page) => page.items) ?? [])];
    const hasOlder = older.data ? older.hasNextPage : seen.nextCursor !== null;
    content = (
      <>
        {unseen.items.length > 0 ? (
          <section aria-labelledby="new-notifications">
            <div className={styles.header}>
              <h2 id="new-notifications" className={styles.sectionTitle}>
                New
              </h2>
              <Button
                variant="secondary"
                onClick={() => markSeen.mutate(unseen.items.map((item) => item.id))}
                disabled={markSeen.isPending}
                aria-busy={markSeen.isPending}
              >
                {markSeen.isPending ? 'Marking…' : 'Mark all as seen'}
              </Button>
            </div>
            {markSeen.isError ? <p role="alert">{markSeen.error.message || 'That did not work. Try again.'}</p> : null}
            <NotificationList items={unseen.items} label="New notifications" />
          </section>
        ) : null}
        {earlier.length > 0 ? (
          <section aria-labelledby="earlier-notifications">
            <h2 id="earlier-notifications" className={styles.sectionTitle}>
              Earlier
            </h2>
            <NotificationList items={earlier} label="Earlier notifications" />
            {hasOlder ? (
              <Button
                variant="secondary"
                className={styles.more}
                onClick={() => void older.fetchNextPage()}
                disabled={older.isFetching}
                aria-busy={older.isFetching}
              >
                {older.isFetching ? 'Loading…' : 'Show older'}
              </Button>
            ) : null}
          </section>
        ) : null}
        {unseen.items.length === 0 && earlier.length === 0 ? (
          <EmptyState title="Nothing here yet" icon="🔔">
            <p>You will find here:</p>
            {/* One line per kind of notification in shared/schemas/notifications.ts. */}
            <ul className={styles.emptyKinds} aria-label="What appears here">
              <li>likes on the stories you shared, and people who follow you or say they wrote one of them</li>
              <li>publications you follow entering a board&apos;s top 100, climbing 10 places or more, or posting again</li>
              <li>files sent to you, and the first download of files you sent</li>
              <li>your orders once paid, and sales in your shop</li>
              <li>a subscription payment that failed, or went through again</li>
            </ul>
          </EmptyState>
        ) : null}
      </>
    );
  }

  return (
    <>
      <PageMeta seo={{ title: `Notifications · ${APP_NAME}` }} />
      <div className={styles.page}>
        <h1 className={styles.title}>Notifications</h1>
        {content}
      </div>
    </>
  );
}
