import { NO_FOLLOWER_COUNT } from '../lib/follower-count';
import styles from './feed-only-badge.module.css';

/**
 * Stands where a publication's follower figures would be when its source counts none: a "0
 * followers" would say something false. The title explains it on hover; the hidden text says
 * it to screen readers, which do not read titles reliably.
 */
export function FeedOnlyBadge() {
  return (
    <span>
      <span className={styles.badge} title={NO_FOLLOWER_COUNT}>
        Feed only
      </span>
      <span className="visually-hidden"> ({NO_FOLLOWER_COUNT})</span>
    </span>
  );
}
