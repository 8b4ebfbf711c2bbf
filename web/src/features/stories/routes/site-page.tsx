import { Navigate, NavLink, useParams } from 'react-router';
import { APP_NAME } from '@shared/constants';
import { feedLinks, siteFeedPath, siteFeedTitle } from '@shared/feeds';
import { normalSiteHost } from '@shared/stories/site-host';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { buttonClassName } from '../../../components/button';
import { FeedLinks } from '../../../components/feed-links';
import { PageMeta } from '../../../components/page-meta';
import { PageSpinner } from '../../../components/spinner';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { ApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useSiteStories } from '../api/read-site-stories';
import type { SiteSort } from '../api/story-keys';
import { StoryList } from '../components/story-list';
import { sitePath } from '../lib/story-display';
import styles from './stories-page.module.css';

const SORT_LABELS: Record<SiteSort, string> = { new: 'Newest', hot: 'Hottest' };
const SORTS: readonly SiteSort[] = ['new', 'hot'];

const storyCount = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'story' : 'stories'}`;

function NoSuchSite({ host, reason }: { host: string; reason: string }) {
  return (
    <>
      <PageMeta seo={{ title: `No stories from ${host} · ${APP_NAME}` }} />
      <EmptyState level={1} title={`No stories from ${host}`}>
        <p>{reason}</p>
        <p>
          <Link to="/stories" className={buttonClassName()}>
            See every story
          </Link>
        </p>
      </EmptyState>
    </>
  );
}

/**
 * /stories/site/{host} (newest first) and /stories/site/{host}/hot : every story shared from one
 * site, with how many there are. www.example.com and example.com are one site: the address is
 * rewritten to the site's own name.
 */
export function SitePage() {
  const { host: typed = '', sort: sortParam } = useParams();
  const host = normalSiteHost(typed);
  const sort: SiteSort | undefined = sortParam === undefined ? 'new' : sortParam === 'hot' ? 'hot' : undefined;
  const { user, isPending: userPending } = useCurrentUser();
  const valid = host !== undefined && sort !== undefined && host === typed;
  const query = useSiteStories(host ?? '', sort ?? 'new', user?.userId ?? null, valid && !userPending);

  if (host === undefined || sort === undefined) {
    return (
      <div className={styles.page}>
        <NoSuchSite
          host={typed}
          reason={
            host === undefined
              ? 'That is not a site name (such as example.com).'
              : 'A site page lists its newest or its hottest stories, nothing else.'
          }
        />
      </div>
    );
  }
  if (host !== typed) return <Navigate to={sitePath(host, sort)} replace />;

  const site = query.data?.pages[0]?.site;
  const feeds = feedLinks(siteFeedTitle(host, APP_NAME), (format) => siteFeedPath(host, format));
  let content;
  if (userPending || query.isPending) {
    content = <PageSpinner label={`Loading stories from ${host}`} />;
  } else if (query.isError && query.error instanceof ApiError && query.error.status === 404) {
    return (
      <div className={styles.page}>
        <NoSuchSite host={host} reason="Nobody has shared a story from this site yet." />
      </div>
    );
  } else if (query.isError) {
    content = (
      <ErrorState
        title="The stories could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else {
    const stories = query.data.pages.flatMap((page) => page.items);
    content =
      stories.length === 0 ? (
        <EmptyState title="Nothing hot from this site lately">
          The hottest are ranked from the last 30 days; the newest tab lists every story from {host}.
        </EmptyState>
      ) : (
        <StoryList stories={stories} viewerId={user?.userId ?? null} query={query} />
      );
  }

  return (
    <>
      <PageMeta seo={{ title: `Stories from ${host} · ${APP_NAME}` }} feeds={feeds} />
      <div className={styles.page}>
        <header className={styles.header}>
          <h1 className={styles.title}>{site ? `${storyCount(site.storyCount)} from ${host}` : `Stories from ${host}`}</h1>
        </header>
        <nav aria-label="Order" className={styles.tabs}>
          {SORTS.map((name) => (
            <NavLink
              key={name}
              to={sitePath(host, name)}
              end
              className={({ isActive }) => (isActive ? styles.activeTab : styles.tab)}
            >
              {SORT_LABELS[name]}
            </NavLink>
          ))}
        </nav>
        {content}
        {site ? <FeedLinks feeds={feeds} className={styles.feeds} /> : null}
      </div>
    </>
  );
}
