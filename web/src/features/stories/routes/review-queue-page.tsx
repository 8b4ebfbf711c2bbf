import { APP_NAME } from '@shared/constants';
import { MoreButton } from '../../../components/more-button';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useDecideStoryReview } from '../api/decide-story-review';
import { useReviewQueue } from '../api/list-review-queue';
import type { Story } from '../api/story-keys';
import { StoryCard } from '../components/story-card';
import { storyTitle } from '../lib/story-display';
import styles from './stories-page.module.css';

/** /stories/review : the editors' queue of stories their sharers submitted, each accepted or rejected. */
export function ReviewQueuePage() {
  const { user, isPending: userPending } = useCurrentUser();
  const loginModal = useLoginModal();
  const isEditor = user?.isSuperUser === true;
  const queue = useReviewQueue(isEditor);

  let content;
  if (userPending) {
    content = <PageSpinner label="Loading the review queue" />;
  } else if (!user) {
    content = (
      <EmptyState title="Log in to review stories">
        <Button onClick={loginModal.open}>Log in</Button>
      </EmptyState>
    );
  } else if (!isEditor) {
    content = <EmptyState title="This page is for the editors">Only the platform's editors review submitted stories.</EmptyState>;
  } else if (queue.isPending) {
    content = <PageSpinner label="Loading the review queue" />;
  } else if (queue.isError) {
    content = (
      <ErrorState title="The review queue could not be loaded" error={queue.error} onRetry={() => void queue.refetch()} />
    );
  } else {
    const stories = queue.data.pages.flatMap((page) => page.items);
    content =
      stories.length === 0 ? (
        <EmptyState title="Nothing to review">Stories their sharers submit for review show here.</EmptyState>
      ) : (
        <>
          <ul className={styles.list} aria-label="Stories waiting for review">
            {stories.map((story) => (
              <li key={story.id} className={styles.queueItem}>
                <StoryCard story={story} viewerId={user.userId} />
                <Decision story={story} />
              </li>
            ))}
          </ul>
          <MoreButton query={queue} className={styles.more} />
        </>
      );
  }

  return (
    <>
      <PageMeta seo={{ title: `Review queue · ${APP_NAME}` }} />
      <div className={styles.page}>
        <h1 className={styles.title}>Review queue</h1>
        {content}
      </div>
    </>
  );
}

function Decision({ story }: { story: Story }) {
  const decide = useDecideStoryReview();
  const title = storyTitle(story);
  return (
    <div className={styles.decision}>
      <Button
        onClick={() => decide.mutate({ id: story.id, decision: 'accept' })}
        disabled={decide.isPending}
        aria-label={`Accept “${title}”`}
      >
        Accept
      </Button>
      <Button
        variant="secondary"
        onClick={() => decide.mutate({ id: story.id, decision: 'reject' })}
        disabled={decide.isPending}
        aria-label={`Reject “${title}”`}
      >
        Reject
      </Button>
      {decide.isError ? <p role="alert">{decide.error.message || 'The decision did not get through. Try again.'}</p> : null}
    </div>
  );
}
