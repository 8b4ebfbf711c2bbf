import { useSearchParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import type { FollowedPublication, RankedPublication } from '@shared/schemas/ranking';
import { Button } from '../../../components/button';
import { PageMeta } from '../../../components/page-meta';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { useCurrentUser } from '../../../lib/current-user';
import { useLoginModal } from '../../../lib/login-modal';
import { useFollowedPublications } from '../api/list-followed-publications';
import { PublicationTable, SkeletonRows } from '../components/publication-row';
import { boardPath } from '../lib/paths';
import stateStyles from '../../../components/state-message.module.css';
import styles from '../components/board.module.css';

/**
 * The rankings a followed publication carries its place on. Not the activity board: following is
 * for hearing about climbs, and a publication's place on that board only says when it last posted.
 */
export type FollowingKind = keyof FollowedPublication['ranks'];

/** /following, or /following?by=growth: the Following board, a scope beside All and Active only. */
export function followingPath(kind: FollowingKind): string {
  return kind === 'growth' ? '/following?by=growth' : '/following';
}

/** Followed publications as board rows: their rank on the overall board of `kind`, in that order. */
export function followingBoard(items: readonly FollowedPublication[], kind: FollowingKind): RankedPublication[] {
  return items
    .map(({ ranks, followedAt: _followedAt, ...standing }) => ({ ...standing, rank: ranks[kind] ?? 0 }))
    .sort((a, b) => (a.rank || Number.MAX_SAFE_INTEGER) - (b.rank || Number.MAX_SAFE_INTEGER) || a.name.localeCompare(b.name));
}

function Segment({ to, current, children }: { to: string; current: boolean; children: string }) {
  return (
    <Link to={to} state={{ chosenBoard: true }} className={styles.segment} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/** /following: the publications the reader follows, ranked like a board. */
export function FollowingPage() {
  const [searchParams] = useSearchParams();
  const kind: FollowingKind = searchParams.get('by') === 'growth' ? 'growth' : 'followers';
  const { user, isPending: userPending } = useCurrentUser();
  const loginModal = useLoginModal();
  const followed = useFollowedPublications();
  const heading = 'Publications you follow';

  let content;
  if (!user && !userPending) {
    content = (
      <EmptyState title="Log in to follow publications">
        <p>Follow publications and get notified when they climb the ranks.</p>
        <p className={stateStyles.links}>
          <Button variant="primary" size="small" onClick={loginModal.open}>
            Log in
          </Button>
          <Link to="/">Browse the most followed</Link>
        </p>
      </EmptyState>
    );
  } else if (followed.isError) {
    content = (
      <ErrorState
        title="We couldn’t load the publications you follow"
        error={followed.error}
        onRetry={() => void followed.refetch()}
        retrying={followed.isFetching}
      />
    );
  } else if (!followed.data) {
    content = <SkeletonRows label="Loading the publications you follow" />;
  } else {
    const rows = followingBoard(followed.data.items, kind);
    content =
      rows.length === 0 ? (
        <EmptyState title="You follow no publications yet">
          <p>Use Follow on a publication’s page or row, and it shows here; we tell you when it climbs the ranks.</p>
          <p className={stateStyles.links}>
            <Link to="/">Most followed</Link>
            <Link to="/growing">Fastest growing</Link>
          </p>
        </EmptyState>
      ) : (
        <PublicationTable label={heading} items={rows} kind={kind} />
      );
  }

  return (
    <div className={styles.page}>
      <PageMeta seo={{ title: `${heading} · ${APP_NAME}` }} />
      <header className={styles.header}>
        <h1 className={styles.title}>{heading}</h1>
        <p className={styles.lede}>
          Ranked by {kind === 'growth' ? 'followers gained over the last 30 days' : 'followers'}, with each one’s place on the
          overall board.
        </p>
      </header>
      <div className={styles.toolbar}>
        <nav className={styles.controls} aria-label="Board views">
          <div className={styles.segmented} role="group" aria-label="Rank by">
            <Segment to={followingPath('followers')} current={kind === 'followers'}>
              Most followed
            </Segment>
            <Segment to={followingPath('growth')} current={kind === 'growth'}>
              Fastest growing
            </Segment>
          </div>
          <div className={styles.segmented} role="group" aria-label="Publications">
            <Segment to={boardPath({ kind, activeOnly: false, topic: null })} current={false}>
              All
            </Segment>
            <Segment to={boardPath({ kind, activeOnly: true, topic: null })} current={false}>
              Active only
            </Segment>
            <Segment to={followingPath(kind)} current>
              Following
            </Segment>
          </div>
        </nav>
      </div>
      {content}
    </div>
  );
}
