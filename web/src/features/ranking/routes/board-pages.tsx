import { Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import type { BoardKind } from '@shared/schemas/ranking';
import { useHomeBoard } from '../../../lib/home-board';
import { BoardView, UnknownTopic } from '../components/board-view';
import { boardPath, type BoardFilter } from '../lib/paths';

/** Remount per board, so scroll position, loaded pages and virtual rows never leak across boards. */
function Board(filter: BoardFilter) {
  return <BoardView key={`${filter.kind}:${filter.activeOnly}:${filter.topic ?? ''}`} filter={filter} />;
}

/** Set by the board controls' links: the reader asked for this board, not for their home board. */
export const CHOSEN_BOARD_STATE = { chosenBoard: true } as const;

/**
 * / : every publication by followers, unless a signed-in reader chose another board to open on
 * (their settings' default board); picking "Most followed" in the board controls shows it anyway.
 */
export function MostFollowedPage() {
  const chosen = (useLocation().state as { chosenBoard?: boolean } | null)?.chosenBoard === true;
  const home = useHomeBoard();
  const board = chosen ? { kind: 'followers' as const, activeOnly: false } : home;
  return <Board kind={board.kind} activeOnly={board.activeOnly} topic={null} />;
}

/** /active : publications that posted recently, by followers. */
export function MostFollowedActivePage() {
  return <Board kind="followers" activeOnly topic={null} />;
}

/** /growing : by followers gained over 30 days. */
export function FastestGrowingPage() {
  return <Board kind="growth" activeOnly={false} topic={null} />;
}

/** /growing/active */
export function FastestGrowingActivePage() {
  return <Board kind="growth" activeOnly topic={null} />;
}

/** /recent : newest post first, with the publications whose followers are not known (plain feeds). */
export function RecentlyActivePage() {
  return <Board kind="activity" activeOnly={false} topic={null} />;
}

/** /recent/active */
export function RecentlyActiveActivePage() {
  return <Board kind="activity" activeOnly topic={null} />;
}

/** The shape of a topic tag (shared/schemas/ranking.ts): anything else cannot be a topic. */
const TOPIC_TAG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function useTopicFilter(): { tag: string; valid: boolean; activeOnly: boolean; canonical: string | null } {
  const { tag = '' } = useParams();
  const [searchParams] = useSearchParams();
  const active = searchParams.get('active');
  const valid = TOPIC_TAG.test(tag) && tag.length <= 60;
  // Tags are lower-case: /topic/Technology and /topic/Data Science mean technology and data-science.
  const lowered = tag.trim().toLowerCase().replace(/\s+/g, '-');
  const canonical = !valid && lowered !== tag && TOPIC_TAG.test(lowered) && lowered.length <= 60 ? lowered : null;
  return { tag, valid, activeOnly: active === 'true' || active === '1', canonical };
}

/** The same page under the topic's own tag, so the address bar shows the canonical URL. */
function ToCanonicalTopic({ tag, kind }: { tag: string; kind: BoardKind }) {
  const { search } = useLocation();
  return <Navigate replace to={`${boardPath({ kind, activeOnly: false, topic: tag })}${search}`} />;
}

/** A topic's board of one ranking, once its tag is known to be well formed. */
function TopicBoard({ kind }: { kind: BoardKind }) {
  const { tag, valid, activeOnly, canonical } = useTopicFilter();
  if (canonical) return <ToCanonicalTopic tag={canonical} kind={kind} />;
  if (!valid) return <UnknownTopic tag={tag} />;
  return <Board kind={kind} activeOnly={activeOnly} topic={tag} />;
}

/** /topic/{tag} (?active=true for active publications only). */
export function TopicPage() {
  return <TopicBoard kind="followers" />;
}

/** /topic/{tag}/growing (?active=true for active publications only). */
export function TopicGrowingPage() {
  return <TopicBoard kind="growth" />;
}

/** /topic/{tag}/recent (?active=true for active publications only). */
export function TopicRecentPage() {
  return <TopicBoard kind="activity" />;
}
