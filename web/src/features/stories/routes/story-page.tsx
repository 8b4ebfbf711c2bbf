import { useParams } from 'react-router';
import { APP_NAME } from '@shared/constants';
import { PageMeta } from '../../../components/page-meta';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { PageSpinner } from '../../../components/spinner';
import { ErrorState, NotFoundState, StateLinks } from '../../../components/state-message';
import { ApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useStory } from '../api/get-story';
import { StoryCard } from '../components/story-card';
import { StoryComments } from '../components/story-comments';
import styles from './stories-page.module.css';

/** /stories/{id}: one story, and the readers' discussion of it under it. */
export function StoryPage() {
  const { id = '' } = useParams();
  const { user, isPending: userPending } = useCurrentUser();
  const query = useStory(id, user?.userId ?? null, !userPending);

  let content;
  if (query.data) {
    const { story } = query.data;
    content = (
      <>
        <PageMeta
          seo={{
            // As the page renderer writes it for crawlers (functions/web-pages/lib/pages.ts).
            title: `${story.title || story.url} · ${APP_NAME}`,
            description: story.description ?? `A story shared on ${APP_NAME}, and what readers say about it.`,
          }}
        />
        <nav aria-label="Breadcrumb">
          <Link to="/stories">All stories</Link>
        </nav>
        <div className={styles.list}>
          <StoryCard story={story} viewerId={user?.userId ?? null} standalone />
        </div>
        <StoryComments storyId={story.id} commentCount={story.commentCount} />
      </>
    );
  } else if (query.isError) {
    content =
      query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400) ? (
        <>
          <PageMeta seo={{ title: `Story not found · ${APP_NAME}` }} />
          <NotFoundState title="There is no such story">
            <p>It may have been taken down, or the address is mistyped.</p>
            <StateLinks>
              <Link to="/stories">Hot stories</Link>
              <Link to="/stories/new">New stories</Link>
            </StateLinks>
          </NotFoundState>
        </>
      ) : (
        <ErrorState title="The story could not be loaded" error={query.error} onRetry={() => void query.refetch()} />
      );
  } else {
    content = <PageSpinner label="Loading the story" />;
  }
  return <div className={styles.page}>{content}</div>;
}
