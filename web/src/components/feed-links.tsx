import type { FeedLink } from '@shared/feeds';
import styles from './feed-links.module.css';

/**
 * The visible way to a page's feeds, for people who paste a feed's address into their reader.
 * Plain links, not the router's: the edge serves feeds, the app has no page for them.
 */
export function FeedLinks({ feeds, className }: { feeds: readonly FeedLink[]; className?: string }) {
  if (feeds.length === 0) return null;
  return (
    <p className={[styles.feeds, className].filter(Boolean).join(' ')}>
      {feeds.map((feed, index) => (
        <span key={feed.href}>
          {index > 0 ? <span aria-hidden="true"> · </span> : null}
          <a href={feed.href} type={feed.type} aria-label={feed.title}>
            {feed.type.includes('atom') ? 'Atom' : 'RSS'}
          </a>
        </span>
      ))}
    </p>
  );
}
