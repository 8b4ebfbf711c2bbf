import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { ErrorState } from '../../../components/state-message';
import { useFollowedPublications } from '../api/list-followed-publications';
import { hasFollowerCount } from '../lib/follower-count';
import { formatExact, formatRelative, formatSignedCompact } from '../lib/format';
import { publicationPath } from '../lib/paths';
import { FeedOnlyBadge } from './feed-only-badge';
import { FollowPublicationButton } from './follow-publication-button';
import styles from './followed-publications-list.module.css';

/** The reader's followed publications, for their account page: each links to its page and can be unfollowed. */
export function FollowedPublicationsList() {
  const followed = useFollowedPublications();
  if (followed.isError) {
    return (
      <ErrorState
        title="We couldn’t load the publications you follow"
        error={followed.error}
        onRetry={() => void followed.refetch()}
        retrying={followed.isFetching}
      />
    );
  }
  if (!followed.data) return <p role="status">Loading the publications you follow…</p>;
  if (followed.data.items.length === 0) {
    return (
      <p className={styles.empty}>
        You follow no publications yet. Open one from the <Link to="/">boards</Link> and press Follow.
      </p>
    );
  }
  return (
    <>
      <ul className={styles.list} aria-label="Publications you follow">
        {followed.data.items.map((item) => (
          <li key={item.slug} className={styles.item}>
            <div className={styles.text}>
              <Link to={publicationPath(item.slug)} className={styles.name}>
                {item.name}
              </Link>
              <span className={styles.meta}>
                {hasFollowerCount(item) ? (
                  <>
                    {formatExact(item.followers)} followers · {formatSignedCompact(item.gained30d)} in 30 days
                    {item.ranks.followers ? ` · #${formatExact(item.ranks.followers)} most followed` : ''}
                  </>
                ) : (
                  <>
                    <FeedOnlyBadge />
                    {item.latestPostAt ? ` · last post ${formatRelative(item.latestPostAt)}` : ''}
                  </>
                )}
              </span>
            </div>
            <FollowPublicationButton publication={item} compact />
          </li>
        ))}
      </ul>
      <p className={styles.more}>
        <Link to="/following">See them ranked on the Following board</Link>
      </p>
    </>
  );
}
