import { MoreButton, type PagedQuery } from '../../../components/more-button';
import type { Story } from '../api/story-keys';
import styles from '../routes/stories-page.module.css';
import { StoryCard } from './story-card';

/** Story cards one under another, and a button for the next page while there is one: every list of stories. */
export function StoryList({
  stories,
  viewerId,
  query,
  moreLabel,
}: {
  stories: readonly Story[];
  viewerId: string | null;
  query: PagedQuery;
  moreLabel?: string;
}) {
  return (
    <>
      <div className={styles.list}>
        {stories.map((story) => (
          <StoryCard key={story.id} story={story} viewerId={viewerId} />
        ))}
      </div>
      <MoreButton query={query} className={styles.more} {...(moreLabel ? { label: moreLabel } : {})} />
    </>
  );
}
