import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { BOARD_KINDS, BOARD_NAMES } from '../lib/board-names';
import { boardPath, type BoardFilter } from '../lib/paths';
import styles from './board.module.css';

function Segment({ to, current, children }: { to: string; current: boolean; children: string }) {
  // A board picked here is shown even on `/`, which otherwise opens on the reader's home board.
  return (
    <Link to={to} state={{ chosenBoard: true }} className={styles.segment} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/** Two segmented controls made of real links: ranking (followers / growth / activity) and scope (all / active). */
export function BoardControls({ filter }: { filter: BoardFilter }) {
  return (
    <nav className={styles.controls} aria-label="Board views">
      <div className={styles.segmented} role="group" aria-label="Rank by">
        {BOARD_KINDS.map((kind) => (
          <Segment key={kind} to={boardPath({ ...filter, kind })} current={filter.kind === kind}>
            {BOARD_NAMES[kind]}
          </Segment>
        ))}
      </div>
      <div className={styles.segmented} role="group" aria-label="Publications">
        <Segment to={boardPath({ ...filter, activeOnly: false })} current={!filter.activeOnly}>
          All
        </Segment>
        <Segment to={boardPath({ ...filter, activeOnly: true })} current={filter.activeOnly}>
          Active only
        </Segment>
        {/* The publications the reader follows, by followers or growth (a visitor is asked to log in there);
            followed publications carry no activity rank, so the activity board opens it by followers. */}
        <Segment to={filter.kind === 'growth' ? '/following?by=growth' : '/following'} current={false}>
          Following
        </Segment>
      </div>
    </nav>
  );
}
