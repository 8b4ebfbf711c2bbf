import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { ACTIVE_WINDOW_DAYS, APP_NAME } from '@shared/constants';
import { describeBoard as describeAnyBoard } from '@shared/board-texts';
import { PageMeta } from '../../../components/page-meta';
import { FeedLinks } from '../../../components/feed-links';
import { type BoardFeed, boardFeedPath, boardFeedTitle, feedLinks } from '@shared/feeds';
import type { BoardKind } from '@shared/schemas/ranking';
import { ApiError } from '../../../lib/api-client';
import { useBoardScreen } from '../api/use-board';
import { formatUpdated, plural } from '../lib/format';
import { BOARD_NAMES } from '../lib/board-names';
import { boardPath, type BoardFilter } from '../lib/paths';
import { BoardControls } from './board-controls';
import { topicDisplayName } from '@shared/topic-names';
import { SkeletonRows } from './publication-row';
import { EmptyState, ErrorState, NotFoundState, StateLinks } from '../../../components/state-message';
import { TopicStats } from './topic-stats';
import { TopicChips } from './topic-chips';
import { VirtualBoard } from './virtual-board';
import styles from './board.module.css';

/** Heading and one-line explanation of a board. */
function describeBoard(filter: BoardFilter, topicName?: string): { heading: string; lede: string } {
  // Until the API answers, the name the API will give: the heading does not change case under the reader.
  return describeAnyBoard(filter, filter.topic ? (topicName ?? topicDisplayName(filter.topic)) : undefined);
}

const FEED_OF_BOARD: Partial<Record<BoardKind, BoardFeed>> = { followers: 'most-followed', growth: 'fastest-growing' };

/** A board's RSS and Atom feeds, as the page renderer announces them (the active-only boards share their board's). */
function boardFeeds(filter: BoardFilter, topicName: string | null) {
  const board = FEED_OF_BOARD[filter.kind];
  return board
    ? feedLinks(boardFeedTitle(board, topicName, APP_NAME), (format) => boardFeedPath(board, filter.topic, format))
    : [];
}

/** What an unknown topic tag shows (API 404 NOT_FOUND, or a tag no topic could have). */
export function UnknownTopic({ tag }: { tag: string }) {
  return (
    <div className={styles.page}>
      <PageMeta seo={{ title: `Topic not found · ${APP_NAME}` }} />
      <NotFoundState title={`There is no topic called "${tag}"`}>
        <p>It may have been renamed, or the link has a typo.</p>
        <StateLinks>
          <Link to="/topics">Browse all topics</Link>
          <Link to="/">Go to the most followed publications</Link>
        </StateLinks>
      </NotFoundState>
    </div>
  );
}

/** A whole board page: heading, views, popular topics and the ranked list, in every state. */
export function BoardView({ filter }: { filter: BoardFilter }) {
  const screen = useBoardScreen(filter);
  const data = screen.data;
  const topic = data?.topic ?? null;
  const { heading, lede } = describeBoard(filter, topic?.name);

  if (filter.topic && screen.error instanceof ApiError && screen.error.code === 'NOT_FOUND') {
    return <UnknownTopic tag={filter.topic} />;
  }

  const label = filter.topic ? `${heading}: ${BOARD_NAMES[filter.kind].toLowerCase()}` : heading;
  // Named as the API names the topic, so the links match the server-rendered page's.
  const feeds = filter.topic && !topic ? [] : boardFeeds(filter, topic?.name ?? null);
  return (
    <div className={styles.page}>
      <PageMeta seo={data?.seo ?? { title: `${heading} · ${APP_NAME}`, description: lede }} feeds={feeds} />
      <header className={styles.header}>
        {filter.topic ? (
          <nav className={styles.breadcrumb} aria-label="Breadcrumb">
            <Link to="/topics">All topics</Link>
            <span aria-hidden="true">/</span>
            <span aria-current="page">{heading}</span>
          </nav>
        ) : null}
        <h1 className={styles.title}>{heading}</h1>
        <p className={styles.lede}>{lede}</p>
        {topic ? <TopicStats topic={topic} className={styles.stats} /> : null}
      </header>

      <div className={styles.toolbar}>
        <BoardControls filter={filter} />
        {data ? (
          <p className={styles.meta}>
            {plural(data.page.pageInfo.total, 'publication')}
            <span aria-hidden="true"> · </span>
            <span title={new Date(data.page.generatedAt).toLocaleString()}>updated {formatUpdated(data.page.generatedAt)}</span>
          </p>
        ) : null}
      </div>

      {data ? <TopicChips topics={data.popularTopics} current={filter.topic} activeOnly={filter.activeOnly} /> : null}

      {data ? (
        data.page.items.length === 0 ? (
          <EmptyState title="No publications here yet">
            <p>
              {filter.activeOnly
                ? `None of these publications posted in the last ${ACTIVE_WINDOW_DAYS} days.`
                : 'Publications appear here once they have been ranked.'}
            </p>
            {filter.activeOnly ? (
              <StateLinks>
                <Link to={boardPath({ ...filter, activeOnly: false })}>Show all publications</Link>
              </StateLinks>
            ) : null}
          </EmptyState>
        ) : (
          <VirtualBoard filter={filter} firstPage={data.page} label={label} />
        )
      ) : screen.isError ? (
        <ErrorState
          title="We couldn’t load this board"
          error={screen.error}
          onRetry={() => void screen.refetch()}
          retrying={screen.isFetching}
        />
      ) : (
        <SkeletonRows />
      )}
      {/* After the board: a keyboard reaches the publications first, and the feeds when done with them. */}
      <FeedLinks feeds={feeds} className={styles.feeds} />
    </div>
  );
}
