import { Button } from '../../../components/button';
import { useCurrentUser } from '../../../lib/current-user';
import { useUserStories } from '../api/read-user-stories';
import { StoryList } from './story-list';
import styles from '../routes/stories-page.module.css';

/** The stories one person shared, newest first, for their profile page. */
export function UserStories({ userId, name }: { userId: string; name: string }) {
  const { user, isPending: userPending } = useCurrentUser();
  const stories = useUserStories(userId, user?.userId ?? null, !userPending);
  const headingId = `user-stories-${userId}`;
  const items = stories.data?.pages.flatMap((page) => page.items) ?? [];

  let content;
  if (stories.isPending) {
    content = <p className={styles.muted}>Loading stories…</p>;
  } else if (stories.isError) {
    content = (
      <p role="alert" className={styles.muted}>
        The stories could not be loaded.{' '}
        <Button variant="ghost" size="small" onClick={() => void stories.refetch()}>
          Try again
        </Button>
      </p>
    );
  } else if (items.length === 0) {
    content = <p className={styles.muted}>{name} has not shared any stories yet.</p>;
  } else {
    content = <StoryList stories={items} viewerId={user?.userId ?? null} query={stories} moreLabel="More stories" />;
  }

  return (
    <section aria-labelledby={headingId} className={styles.section}>
      <h2 id={headingId} className={styles.sectionTitle}>
        Stories shared
      </h2>
      {content}
    </section>
  );
}
