import { useState } from 'react';
import { useParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { ACTIVE_WINDOW_DAYS, APP_NAME, GROWTH_WINDOW_DAYS } from '@shared/constants';
import { archivePath, monthName } from '@shared/archive-months';
import type { ArchiveBoardKind, PublicationDetail, PublicationSource, SourcePlatform } from '@shared/schemas/ranking';
import { ExternalIcon } from '../../../components/icons';
import { PageMeta } from '../../../components/page-meta';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { ApiError } from '../../../lib/api-client';
import { usePublication } from '../api/get-publication';
import { Avatar } from '../components/avatar';
import { FollowPublicationButton } from '../components/follow-publication-button';
import { boardLabel, FollowerChart, formatDay, RankChart } from '../components/publication-charts';
import { BOARD_NAMES } from '../lib/board-names';
import { hasFollowerCount } from '../lib/follower-count';
import { formatDate, formatExact, formatPercent, formatRelative, formatUpdated } from '../lib/format';
import { boardPath, topicPath } from '../lib/paths';
import stateStyles from '../../../components/state-message.module.css';
import boardStyles from '../components/board.module.css';
import styles from '../components/publication-page.module.css';

const DAY_MS = 86_400_000;

/** Active or dormant, and why: the rule is the active boards' own (a post in the last 30 days). */
export function activityOf(latestPostAt: string | null, now: number): { active: boolean; why: string } {
  if (!latestPostAt) return { active: false, why: 'No posts recorded yet.' };
  // Active by time elapsed, as the server ranks it; the wording below counts calendar days.
  const daysAgo = Math.floor((now - Date.parse(latestPostAt)) / DAY_MS);
  const when = `${formatRelative(latestPostAt, now)} (${formatDate(latestPostAt)})`;
  return daysAgo <= ACTIVE_WINDOW_DAYS
    ? { active: true, why: `Last post ${when}: within the last ${ACTIVE_WINDOW_DAYS} days.` }
    : { active: false, why: `No post in the last ${ACTIVE_WINDOW_DAYS} days: the last one was ${when}.` };
}

/** Its follower figures, when its source counts followers at all. */
function FollowerStats({ pub }: { pub: PublicationDetail['publication'] }) {
  const sign = pub.gained30d > 0 ? '+' : '';
  return (
    <>
      <div>
        <dt>Followers</dt>
        <dd>{formatExact(pub.followers)}</dd>
      </div>
      <div>
        <dt>{GROWTH_WINDOW_DAYS}-day growth</dt>
        <dd>
          {sign}
          {formatExact(pub.gained30d)}
          {pub.growthPct30d === null ? null : <span className={styles.statNote}> {formatPercent(pub.growthPct30d)}</span>}
        </dd>
      </div>
    </>
  );
}

function Stats({ detail, now }: { detail: PublicationDetail; now: number }) {
  const pub = detail.publication;
  const activity = activityOf(pub.latestPostAt, now);
  return (
    <dl className={boardStyles.stats}>
      {hasFollowerCount(pub) ? <FollowerStats pub={pub} /> : null}
      <div>
        <dt>Last post</dt>
        <dd>
          {pub.latestPostAt ? (
            <time dateTime={pub.latestPostAt} title={formatDate(pub.latestPostAt)}>
              {formatRelative(pub.latestPostAt, now)}
            </time>
          ) : (
            'None yet'
          )}
        </dd>
      </div>
      <div className={styles.activity} data-active={activity.active ? '' : undefined}>
        <dt>Status</dt>
        <dd>
          {activity.active ? 'Active' : 'Dormant'}
          <span className={styles.why}>{activity.why}</span>
        </dd>
      </div>
    </dl>
  );
}

/** Why a publication whose source counts no followers has no follower figures, and where it ranks instead. */
function FeedOnlyNote({ rank }: { rank: number | null }) {
  const board = <Link to={boardPath({ kind: 'activity', activeOnly: false, topic: null })}>{BOARD_NAMES.activity}</Link>;
  const standing =
    rank === null ? (
      <>on {board} from the next hourly update</>
    ) : (
      <>
        #{formatExact(rank)} on {board}
      </>
    );
  return (
    <p className={styles.feedNote}>
      This site publishes a feed but no follower count, so it is ranked by how recently it posted: {standing}.
    </p>
  );
}

function BoardRanks({ detail }: { detail: PublicationDetail }) {
  if (detail.boards.length === 0) {
    return <p className={styles.muted}>Not ranked yet: it joins the boards at the next hourly update.</p>;
  }
  return (
    <ul className={styles.ranks}>
      {detail.boards.map((entry) => (
        <li key={entry.boardId}>
          <span className={styles.rank}>#{formatExact(entry.rank)}</span>
          <span className={styles.rankOf}>of {formatExact(entry.total)}</span>
          <Link to={boardPath({ kind: entry.board.kind, activeOnly: entry.board.activeOnly, topic: entry.board.topic })}>
            {boardLabel(entry)}
          </Link>
        </li>
      ))}
    </ul>
  );
}

const ARCHIVE_BOARD_NAMES: Record<ArchiveBoardKind, string> = {
  followers: 'most followed',
  growth: 'fastest growing',
  activity: 'most active',
};

/** The months it made an archived board in, each with its best place, linking to that month's page. */
function ArchiveMonths({ detail }: { detail: PublicationDetail }) {
  const topicNames = new Map(
    detail.boards.flatMap(({ board, topicName }) => (board.topic && topicName ? [[board.topic, topicName]] : [])),
  );
  return (
    <ul className={styles.ranks}>
      {detail.archiveMonths.map(({ month, placements }) => {
        // Overall places first, then the best rank: the place most worth telling.
        const best = [...placements].sort((a, b) => Number(a.topic !== null) - Number(b.topic !== null) || a.rank - b.rank)[0];
        const scope = best?.topic ? ` in ${topicNames.get(best.topic) ?? best.topic}` : '';
        return (
          <li key={month}>
            {best ? (
              <span className={styles.rankOf}>
                #{best.rank} {ARCHIVE_BOARD_NAMES[best.board]}
                {scope}
              </span>
            ) : null}
            <Link to={archivePath(month, best?.topic ?? null)}>{monthName(month)}</Link>
          </li>
        );
      })}
    </ul>
  );
}

const PLATFORM_NAMES: Record<SourcePlatform, string> = {
  medium: 'Medium',
  'wordpress.com': 'WordPress.com',
  feed: 'its feed',
};

/** Where the numbers come from and how fresh they are, so a reader can judge them. */
function SourceNote({ source, now }: { source: PublicationSource | null; now: number }) {
  if (!source) return <>Numbers reported to {APP_NAME} through its ingestion API.</>;
  const platform = PLATFORM_NAMES[source.platform];
  const collected = source.lastCollectedAt ? `last collected ${formatUpdated(source.lastCollectedAt, now)}` : 'not collected yet';
  if (source.status === 'gone') {
    return <>No longer found on {platform}: it has left the boards and keeps its history here.</>;
  }
  if (source.status !== 'active') {
    return (
      <>
        Reading it from {platform} has been failing lately; its numbers were {collected}.
      </>
    );
  }
  return (
    <>
      Numbers from {platform}, {collected}.
    </>
  );
}

function PublicationView({ detail }: { detail: PublicationDetail }) {
  const pub = detail.publication;
  const counted = hasFollowerCount(pub);
  const [now] = useState(Date.now);
  const topicNames = new Map(
    detail.boards.flatMap(({ board, topicName }) => (board.topic && topicName ? [[board.topic, topicName]] : [])),
  );
  return (
    <article className={boardStyles.page}>
      <PageMeta seo={detail.seo} />
      <header className={styles.hero}>
        <div className={styles.heroAvatar}>
          <Avatar name={pub.name} seed={pub.slug} imageUrl={pub.imageUrl} />
        </div>
        <div className={styles.heroText}>
          <h1 className={boardStyles.title}>{pub.name}</h1>
          {pub.description ? <p className={boardStyles.lede}>{pub.description}</p> : null}
          {pub.topics.length > 0 ? (
            <ul className={styles.topics} aria-label="Topics">
              {pub.topics.map((tag) => (
                <li key={tag}>
                  <Link to={topicPath(tag)}>{topicNames.get(tag) ?? tag}</Link>
                </li>
              ))}
            </ul>
          ) : null}
          <div className={styles.actions}>
            <FollowPublicationButton publication={{ ...pub, sparkline: [], ranks: pub.ranks }} />
            <a className={styles.visit} href={pub.url} target="_blank" rel="noopener noreferrer">
              Visit {pub.name}
              <span className="visually-hidden"> (opens in a new tab)</span>
              <ExternalIcon className={styles.visitIcon} />
            </a>
          </div>
        </div>
      </header>

      <Stats detail={detail} now={now} />
      {counted ? null : <FeedOnlyNote rank={pub.ranks.activity} />}

      <section className={styles.section} aria-labelledby="ranks-heading">
        <h2 id="ranks-heading" className={styles.sectionTitle}>
          Rankings
        </h2>
        <BoardRanks detail={detail} />
      </section>

      {detail.archiveMonths.length > 0 ? (
        <section className={styles.section} aria-labelledby="archive-heading">
          <h2 id="archive-heading" className={styles.sectionTitle}>
            In the monthly archive
          </h2>
          <ArchiveMonths detail={detail} />
        </section>
      ) : null}

      <section className={styles.section} aria-labelledby="history-heading">
        <h2 id="history-heading" className={styles.sectionTitle}>
          History
        </h2>
        <div className={styles.charts}>
          {counted ? <FollowerChart name={pub.name} history={detail.history} /> : null}
          <RankChart name={pub.name} boards={detail.boards} rankHistory={detail.rankHistory} />
        </div>
        <p className={styles.muted}>
          <SourceNote source={detail.source} now={now} /> Tracked since {formatDay(pub.firstSeenAt, true)}. Rankings update
          hourly; each day keeps its last ranks.
        </p>
      </section>
    </article>
  );
}

function PublicationSkeleton() {
  return (
    <div className={boardStyles.page} role="status" aria-label="Loading the publication" aria-busy="true">
      <div className={styles.skeletonHero} />
      <div className={styles.skeletonChart} />
    </div>
  );
}

/** /pub/{slug}: one publication, its standing on every board, and its history. */
export function PublicationPage() {
  const { slug = '' } = useParams();
  const publication = usePublication(slug);
  if (publication.data) return <PublicationView detail={publication.data} />;
  if (publication.isError) {
    if (publication.error instanceof ApiError && (publication.error.status === 404 || publication.error.status === 400)) {
      return (
        <div className={boardStyles.page}>
          <title>{`Publication not found · ${APP_NAME}`}</title>
          <EmptyState title="There is no such publication" icon="?" level={1}>
            <p>It may have been renamed or removed. Search for it, or browse the boards.</p>
            <p className={stateStyles.links}>
              <Link to={`/search?q=${encodeURIComponent(slug.replace(/[-_.]+/g, ' '))}`}>Search for “{slug}”</Link>
              <Link to="/">Most followed</Link>
            </p>
          </EmptyState>
        </div>
      );
    }
    return (
      <div className={boardStyles.page}>
        <ErrorState
          title="We couldn’t load this publication"
          error={publication.error}
          onRetry={() => void publication.refetch()}
          retrying={publication.isFetching}
        />
      </div>
    );
  }
  return <PublicationSkeleton />;
}
