import { PrefetchLink as Link } from '../../../components/prefetch-link';
import type { Topic } from '@shared/schemas/ranking';
import { formatCompact, formatExact } from '../lib/format';
import { topicPath } from '../lib/paths';
import styles from './board.module.css';

/** Popular topics as chips, the current one marked; on an active board each counts its active publications. */
export function TopicChips({
  topics,
  current,
  activeOnly = false,
}: {
  topics: Topic[];
  current: string | null;
  activeOnly?: boolean;
}) {
  if (topics.length === 0) return null;
  return (
    <nav className={styles.chipsNav} aria-label="Popular topics">
      <h2 className={styles.chipsTitle}>Popular topics</h2>
      <ul className={styles.chips}>
        {topics.map((topic) => (
          <li key={topic.tag}>
            <Link
              to={activeOnly ? `${topicPath(topic.tag)}?active=true` : topicPath(topic.tag)}
              className={styles.chip}
              aria-current={topic.tag === current ? 'page' : undefined}
              title={`${formatExact(activeOnly ? topic.activeCount : topic.publicationCount)} ${activeOnly ? 'active ' : ''}publications`}
            >
              {topic.name}
              <span className={styles.chipCount}>{formatCompact(activeOnly ? topic.activeCount : topic.publicationCount)}</span>
            </Link>
          </li>
        ))}
        <li>
          <Link to="/topics" className={styles.chip} data-all="">
            All topics →
          </Link>
        </li>
      </ul>
    </nav>
  );
}
