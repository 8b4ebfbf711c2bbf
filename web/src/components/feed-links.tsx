import type { FeedLink } from '@shared/feeds';
import styles from './feed-links.module.css';

/** A feed's title without its format, which the link's visible text says. */
const withoutFormat = (title: string) => title.replace(/ \((RSS|Atom)\)$/, '');

/**
 * The visible way to a page's feeds, for people who paste a feed's address into their reader.
 * Plain links, not the router's: the edge serves feeds, the app has no page for them. Each
 * link's name starts with the word it shows ("RSS feed of Hot stories"), so a person who says
 * what they see (voice control) reaches it: WCAG 2.5.3, label in name.
 */
export function FeedLinks({ feeds, className }: { feeds: readonly FeedLink[]; className?: string }) {
  if (feeds.length === 0) return null;
  return (
    <p className={[styles.feeds, className].filter(Boolean).join(' ')}>
      {feeds.map((feed, index) => (
        <span key={feed.href}>
          {index > 0 ? <span aria-hidden="true"> · </span> : null}
          <FeedLinkAnchor feed={feed} />
        </span>
      ))}
    </p>
  );
}

function FeedLinkAnchor({ feed }: { feed: FeedLink }) {
  const format = feed.type.includes('atom') ? 'Atom' : 'RSS';
  return (
    <a href={feed.href} type={feed.type} aria-label={`${format} feed of ${withoutFormat(feed.title)}`}>
      {format}
    </a>
  );
}
