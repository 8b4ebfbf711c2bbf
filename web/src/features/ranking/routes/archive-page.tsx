import { useId } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { archivePath, monthName } from '@shared/archive-months';
import { APP_NAME } from '@shared/constants';
import type { ArchiveBoardKind } from '@shared/schemas/ranking';
import type { ArchiveRow, MonthArchive } from '@shared/schemas/month-archive';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { PageMeta } from '../../../components/page-meta';
import { EmptyState, ErrorState, NotFoundState, StateLinks } from '../../../components/state-message';
import { ApiError } from '../../../lib/api-client';
import { useArchivedMonths } from '../api/list-archived-months';
import { useArchiveMonth } from '../api/show-archive-month';
import { Avatar } from '../components/avatar';
import { formatCompact, formatExact, formatPercent, formatSignedCompact, plural } from '../lib/format';
import { publicationPath } from '../lib/paths';
import boardStyles from '../components/board.module.css';
import styles from '../components/archive.module.css';

const BOARDS: { kind: ArchiveBoardKind; title: string; measure: string }[] = [
  { kind: 'followers', title: 'Most followed', measure: 'followers at the month’s end' },
  { kind: 'growth', title: 'Fastest growing', measure: 'followers gained over the month' },
  { kind: 'activity', title: 'Most active', measure: 'days with a post in the last 30 days' },
];

function Figure({ kind, row, days }: { kind: ArchiveBoardKind; row: ArchiveRow; days: number }) {
  if (kind === 'growth' && row.gained !== null) {
    return (
      <span className={styles.figure} title={`${formatExact(row.gained)} followers gained`}>
        {formatSignedCompact(row.gained)}
        {row.growthPct === null ? null : <span className={styles.muted}> {formatPercent(row.growthPct)}</span>}
      </span>
    );
  }
  if (kind === 'activity') {
    return <span className={styles.figure}>{`active ${row.activeDays} of ${days} days`}</span>;
  }
  return (
    <span className={styles.figure} title={row.followers === null ? undefined : `${formatExact(row.followers)} followers`}>
      {row.followers === null ? 'feed' : `${formatCompact(row.followers)} followers`}
    </span>
  );
}

function Board({ kind, title, measure, archive }: (typeof BOARDS)[number] & { archive: MonthArchive }) {
  const headingId = useId();
  const rows = archive.boards[kind];
  const days = new Date(Date.UTC(Number(archive.month.slice(0, 4)), Number(archive.month.slice(5, 7)), 0)).getUTCDate();
  return (
    <section className={styles.board} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.boardTitle}>
        {title}
      </h2>
      <p className={styles.muted}>By {measure}.</p>
      {rows.length === 0 ? (
        <p className={styles.muted}>No publication made this board that month.</p>
      ) : (
        <ol className={styles.rows} aria-label={`${title}, ${monthName(archive.month)}`}>
          {rows.map((row) => (
            <li key={row.slug} className={styles.row}>
              <span className={styles.rank}>#{row.rank}</span>
              <Avatar name={row.name} seed={row.slug} imageUrl={row.imageUrl} size={24} />
              <Link to={publicationPath(row.slug)} className={styles.name}>
                {row.name}
              </Link>
              <Figure kind={kind} row={row} days={days} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Every archived month, newest first, the one shown marked as the current page. */
function MonthList({ current, topic }: { current: string | null; topic: string | null }) {
  const months = useArchivedMonths();
  if (!months.data || months.data.months.length === 0) return null;
  return (
    <nav className={styles.months} aria-label="Archived months">
      <h2 className={styles.boardTitle}>Every archived month</h2>
      <ul>
        {months.data.months.map(({ month }) => (
          <li key={month}>
            <Link to={archivePath(month, topic)} aria-current={month === current ? 'page' : undefined}>
              {monthName(month)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The archived months either side of `month`, among those archived. */
function useNeighbours(month: string): { previous: string | null; next: string | null } {
  const months = useArchivedMonths().data?.months.map((entry) => entry.month) ?? [];
  const older = months.filter((candidate) => candidate < month);
  const newer = months.filter((candidate) => candidate > month);
  return { previous: older[0] ?? null, next: newer.at(-1) ?? null };
}

function TopicPicker({ archive }: { archive: MonthArchive }) {
  const navigate = useNavigate();
  const id = useId();
  return (
    <p className={styles.picker}>
      <label htmlFor={id}>Topic</label>
      <select
        id={id}
        value={archive.topic?.tag ?? ''}
        onChange={(event) => void navigate(archivePath(archive.month, event.target.value || null))}
      >
        <option value="">Every topic</option>
        {archive.topics.map((topic) => (
          <option key={topic.tag} value={topic.tag}>
            {`${topic.name} (${formatExact(topic.publicationCount)})`}
          </option>
        ))}
      </select>
    </p>
  );
}

function MonthView({ archive }: { archive: MonthArchive }) {
  const { previous, next } = useNeighbours(archive.month);
  const topic = archive.topic?.tag ?? null;
  const title = monthName(archive.month);
  return (
    <>
      <PageMeta seo={archive.seo} />
      <header className={boardStyles.header}>
        <p className={boardStyles.breadcrumb}>
          <Link to="/archive">Monthly archive</Link>
        </p>
        <h1 className={boardStyles.title}>
          {archive.topic ? `${archive.topic.name} publications of ${title}` : `Publications of ${title}`}
        </h1>
        <p className={boardStyles.lede}>
          The leaders of {plural(archive.publicationCount, 'publication')} ranked in {title}, as they stood when the month closed.
        </p>
      </header>
      <nav className={styles.pager} aria-label="Months">
        {previous ? (
          <Link to={archivePath(previous, topic)} rel="prev">
            ← {monthName(previous)}
          </Link>
        ) : (
          <span />
        )}
        {next ? (
          <Link to={archivePath(next, topic)} rel="next">
            {monthName(next)} →
          </Link>
        ) : null}
      </nav>
      <TopicPicker archive={archive} />
      <div className={styles.boards}>
        {BOARDS.map((board) => (
          <Board key={board.kind} {...board} archive={archive} />
        ))}
      </div>
    </>
  );
}

function ArchiveSkeleton() {
  return <div className={styles.boards} role="status" aria-label="Loading the month" aria-busy="true" />;
}

/** /archive/{year}/{month}?topic=: a closed month's three boards, overall or of one topic. */
export function ArchivePage() {
  const { year = '', month: monthParam = '' } = useParams();
  const [searchParams] = useSearchParams();
  const topic = searchParams.get('topic')?.trim().toLowerCase() || null;
  const valid = /^\d{4}$/.test(year) && /^(0[1-9]|1[0-2])$/.test(monthParam);
  const month = `${year}-${monthParam}`;
  const archive = useArchiveMonth(month, topic, { enabled: valid });

  let content;
  if (!valid || (archive.isError && archive.error instanceof ApiError && [400, 404].includes(archive.error.status))) {
    content = (
      <>
        <PageMeta seo={{ title: `Month not archived · ${APP_NAME}` }} />
        <NotFoundState title={valid ? `${monthName(month)} is not in the archive` : 'There is no such month'}>
          {archive.error instanceof ApiError ? <p>{archive.error.message}</p> : null}
          <StateLinks>
            {valid && topic ? <Link to={archivePath(month)}>Every topic of {monthName(month)}</Link> : null}
            <Link to="/archive">Every archived month</Link>
            <Link to="/">Today’s most followed</Link>
          </StateLinks>
        </NotFoundState>
      </>
    );
  } else if (archive.isError) {
    content = (
      <ErrorState
        title="We couldn’t load this month"
        error={archive.error}
        onRetry={() => void archive.refetch()}
        retrying={archive.isFetching}
      />
    );
  } else if (!archive.data) {
    content = <ArchiveSkeleton />;
  } else {
    content = <MonthView archive={archive.data} />;
  }
  return (
    <div className={boardStyles.page}>
      {content}
      <MonthList current={valid ? month : null} topic={topic} />
    </div>
  );
}

/** /archive: every archived month, newest first. */
export function ArchiveIndexPage() {
  const months = useArchivedMonths();
  let content;
  if (months.isError) {
    content = (
      <ErrorState
        title="We couldn’t load the archive"
        error={months.error}
        onRetry={() => void months.refetch()}
        retrying={months.isFetching}
      />
    );
  } else if (!months.data) {
    content = <ArchiveSkeleton />;
  } else if (months.data.months.length === 0) {
    content = (
      <EmptyState title="No month archived yet">
        <p>A month’s rankings are archived the day after it closes.</p>
      </EmptyState>
    );
  } else {
    content = <MonthList current={null} topic={null} />;
  }
  return (
    <div className={boardStyles.page}>
      <PageMeta seo={{ title: `Monthly archive · ${APP_NAME}` }} />
      <header className={boardStyles.header}>
        <h1 className={boardStyles.title}>Monthly archive</h1>
        <p className={boardStyles.lede}>
          The most followed, fastest growing and most active publications of each past month, overall and by topic.
        </p>
      </header>
      {content}
    </div>
  );
}
