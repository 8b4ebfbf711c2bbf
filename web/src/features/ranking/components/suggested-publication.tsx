import type { ReactNode } from 'react';
import type { SuggestedPublication } from '@shared/schemas/suggestions';
import { formatCompact, formatExact, formatRelative } from '../lib/format';
import { Avatar } from './avatar';
import styles from './suggestion.module.css';

const PLATFORM_NAMES: Record<SuggestedPublication['platform'], string> = {
  medium: 'Medium',
  'wordpress.com': 'WordPress.com',
  feed: 'RSS or Atom feed',
};

/** A publication as its platform shows it: for a preview, a suggestion, or the queue. */
export function SuggestedPublicationCard({ publication, children }: { publication: SuggestedPublication; children?: ReactNode }) {
  const facts = [
    PLATFORM_NAMES[publication.platform],
    publication.followers === null ? 'no follower count' : `${formatCompact(publication.followers)} followers`,
    publication.latestPostAt ? `last post ${formatRelative(publication.latestPostAt)}` : 'no posts listed',
  ];
  return (
    <article className={styles.card} aria-label={publication.name}>
      <Avatar name={publication.name} seed={publication.sourceUrl} imageUrl={publication.imageUrl} size={48} />
      <h3 className={styles.name}>
        <a href={publication.url} target="_blank" rel="noopener noreferrer">
          {publication.name}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </h3>
      <p
        className={styles.facts}
        title={publication.followers === null ? undefined : `${formatExact(publication.followers)} followers`}
      >
        {facts.join(' · ')}
      </p>
      {publication.description ? <p className={styles.description}>{publication.description}</p> : null}
      {children}
    </article>
  );
}
