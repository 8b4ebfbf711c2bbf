import { useParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { ACTIVE_WINDOW_DAYS, APP_NAME } from '@shared/constants';
import type { TopicCard as TopicCardData } from '@shared/schemas/ranking';
import { PageMeta } from '../../../components/page-meta';
import { EmptyState, ErrorState, NotFoundState, StateLinks } from '../../../components/state-message';
import { TOPICS_PAGE_SIZE, useTopicsScreen } from '../api/show-topics';
import { Avatar } from '../components/avatar';
import { Pagination } from '../components/pagination';
import { TopicStats } from '../components/topic-stats';
import { formatCompact, formatExact, plural } from '../lib/format';
import { publicationPath, topicPath, topicsPagePath } from '../lib/paths';
import boardStyles from '../components/board.module.css';
import styles from '../components/topics.module.css';

function TopicCard({ topic, position }: { topic: TopicCardData; position: number }) {
  const activeShare = topic.publicationCount ? Math.round((topic.activeCount / topic.publicationCount) * 100) : 0;
  return (
    <li className={styles.card}>
      <span className={styles.position} aria-hidden="true">
        {position}
      </span>
      <h2 className={styles.cardTitle}>
        <Link to={topicPath(topic.tag)} className={styles.cardLink}>
          {topic.name}
        </Link>
      </h2>
      <TopicStats topic={topic} className={styles.cardStats} />
      {topic.leaders.length > 0 ? (
        <ol className={styles.leaders} aria-label={`Leading ${topic.name} publications`}>
          {topic.leaders.map((leader) => (
            <li key={leader.slug} className={styles.leader}>
              <Avatar name={leader.name} seed={leader.slug} imageUrl={leader.imageUrl} size={24} />
              <Link to={publicationPath(leader.slug)} className={styles.leaderName}>
                {leader.name}
              </Link>
              <abbr className={styles.leaderFollowers} title={`${formatExact(leader.followers)} followers`}>
                {formatCompact(leader.followers)}
              </abbr>
            </li>
          ))}
        </ol>
      ) : null}
      <div className={styles.activity}>
        <span className={styles.meter} aria-hidden="true">
          <span style={{ width: `${activeShare}%` }} />
        </span>
        <span
          title={`${formatExact(topic.activeCount)} of ${formatExact(topic.publicationCount)} posted in the last ${ACTIVE_WINDOW_DAYS} days`}
        >
          {activeShare}% active
        </span>
      </div>
    </li>
  );
}

function TopicsSkeleton() {
  return (
    <div className={styles.grid} role="status" aria-label="Loading topics" aria-busy="true">
      {Array.from({ length: 9 }, (_, index) => (
        <div key={index} className={styles.card} data-skeleton="" aria-hidden="true" />
      ))}
    </div>
  );
}

/** A page number that does not exist (not a number, or past the last page): the site's not-found state. */
function NoSuchPage({ label, last }: { label: string; last: number | null }) {
  return (
    <div className={boardStyles.page}>
      <PageMeta seo={{ title: `Page not found · ${APP_NAME}` }} />
      <NotFoundState title={`There is no page ${label} of topics`}>
        {last === null ? null : <p>The topics end at page {last}.</p>}
        <StateLinks>
          {last !== null && last > 1 ? <Link to={topicsPagePath(last)}>Go to the last page</Link> : null}
          <Link to="/topics">Go to the first page of topics</Link>
        </StateLinks>
      </NotFoundState>
    </div>
  );
}

/** /topics and /topics/{page}: every topic, the biggest first, with the publications leading each, a page at a time. */
export function TopicsPage() {
  const { page: pageParam } = useParams();
  const page = pageParam === undefined ? 1 : /^\d+$/.test(pageParam) ? Number(pageParam) : NaN;
  const valid = Number.isInteger(page) && page >= 1 && page <= 100_000;
  const screen = useTopicsScreen(valid ? page : 1, { enabled: valid });
  const data = valid ? screen.data : undefined;
  const shown = data?.topics.pageInfo.page === page ? data : undefined;
  const total = data?.topics.pageInfo.total ?? 0;
  const last = Math.max(1, Math.ceil(total / TOPICS_PAGE_SIZE));

  if (!valid) return <NoSuchPage label={`"${pageParam ?? ''}"`} last={null} />;
  // The API answers a page past the end with no topics and the real total.
  if (shown && shown.topics.items.length === 0 && total > 0) return <NoSuchPage label={String(page)} last={last} />;

  const fallbackTitle = page > 1 ? `Topics, page ${page} · ${APP_NAME}` : `Topics · ${APP_NAME}`;
  let content;
  if (screen.isError && !data) {
    content = (
      <ErrorState
        title="We couldn’t load the topics"
        error={screen.error}
        onRetry={() => void screen.refetch()}
        retrying={screen.isFetching}
      />
    );
  } else if (!data || (data.topics.items.length === 0 && !shown)) {
    content = <TopicsSkeleton />;
  } else if (data.topics.items.length === 0) {
    content = (
      <EmptyState title="No topics yet">
        <p>Topics appear once publications have been ranked.</p>
      </EmptyState>
    );
  } else {
    const from = data.topics.pageInfo.from;
    content = (
      <>
        <ol className={styles.grid} aria-label={`Topics ${from + 1} to ${from + data.topics.items.length}`} aria-busy={!shown}>
          {data.topics.items.map((topic, index) => (
            <TopicCard key={topic.tag} topic={topic} position={from + index + 1} />
          ))}
        </ol>
        <Pagination current={page} last={last} href={topicsPagePath} />
      </>
    );
  }

  return (
    <div className={boardStyles.page}>
      <PageMeta seo={shown?.seo ?? { title: fallbackTitle }} />
      <header className={boardStyles.header}>
        <h1 className={boardStyles.title}>Topics</h1>
        <p className={boardStyles.lede}>
          {data && total > 0
            ? `${plural(total, 'topic')}, biggest first, each with the publications that lead it. Open one to see its most followed and fastest growing publications.`
            : 'Every topic, biggest first, with the publications that lead it.'}
          {data && page > 1 ? ` Page ${page} of ${last}.` : ''}
        </p>
      </header>
      {content}
    </div>
  );
}
