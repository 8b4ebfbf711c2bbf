import { NavLink, useLocation } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { Button, buttonClassName } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { FeedLinks } from '../../../components/feed-links';
import { feedLinks, storiesFeedPath, storiesFeedTitle } from '@shared/feeds';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useRequireLogin } from '../../../lib/require-login';
import { useShareStory } from '../../../lib/share-story';
import { useFeed } from '../api/read-feed';
import { type Feed, FEEDS } from '../api/story-keys';
import { StoryList } from '../components/story-list';
import styles from './stories-page.module.css';

const FEED_LABELS: Record<Feed, string> = { hot: 'Hot', new: 'New', following: 'Following' };
const feedPath = (feed: Feed) => (feed === 'hot' ? '/stories' : `/stories/${feed}`);

/** /stories, /stories/new, /stories/following : the stories people share, one feed at a time. */
export function StoriesPage() {
  // The feed is the path's second segment: /stories/{id} is a story's page, not a feed.
  const param = useLocation().pathname.split('/')[2];
  const feed: Feed = (FEEDS as readonly string[]).includes(param ?? '') ? (param as Feed) : 'hot';
  const { user, isPending: userPending } = useCurrentUser();
  const loginModal = useLoginModal();
  const requireLogin = useRequireLogin();
  const shareStory = useShareStory();
  const needsLogin = feed === 'following' && !user;
  const query = useFeed(feed, user?.userId ?? null, !userPending && !needsLogin);
  // The following feed is the reader's own: only the public ones have an RSS or Atom feed.
  const feeds =
    feed === 'following' ? [] : feedLinks(storiesFeedTitle(feed, APP_NAME), (format) => storiesFeedPath(feed, format));

  let content;
  if (userPending || (!needsLogin && query.isPending)) {
    content = <PageSpinner label="Loading stories" />;
  } else if (needsLogin) {
    content = (
      <EmptyState title="Log in to see stories from people you follow">
        <Button onClick={loginModal.open}>Log in</Button>
      </EmptyState>
    );
  } else if (query.isError) {
    content = <ErrorState title="The stories could not be loaded" error={query.error} onRetry={() => void query.refetch()} />;
  } else {
    const stories = query.data?.pages.flatMap((page) => page.items) ?? [];
    content =
      stories.length === 0 ? (
        <EmptyState title="No stories yet">
          {feed === 'following'
            ? 'Follow people on their profile page to see what they share.'
            : 'Stories people share show here.'}
        </EmptyState>
      ) : (
        <StoryList stories={stories} viewerId={user?.userId ?? null} query={query} />
      );
  }

  return (
    <>
      <PageMeta seo={{ title: `${FEED_LABELS[feed]} stories · ${APP_NAME}` }} feeds={feeds} />
      <div className={styles.page}>
        <header className={styles.header}>
          <h1 className={styles.title}>Stories</h1>
          {user?.isSuperUser ? (
            <Link to="/stories/review" className={buttonClassName({ variant: 'secondary' })}>
              Review queue
            </Link>
          ) : null}
          <Button onClick={() => requireLogin(() => shareStory.open({}))}>Share a story</Button>
        </header>
        <nav aria-label="Feeds" className={styles.tabs}>
          {FEEDS.map((name) => (
            <NavLink key={name} to={feedPath(name)} end className={({ isActive }) => (isActive ? styles.activeTab : styles.tab)}>
              {FEED_LABELS[name]}
            </NavLink>
          ))}
        </nav>
        {content}
        <FeedLinks feeds={feeds} className={styles.feeds} />
      </div>
    </>
  );
}
