import { type CSSProperties, type Ref, useState } from 'react';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { GROWTH_WINDOW_DAYS } from '@shared/constants';
import type { BoardKind, RankedPublication } from '@shared/schemas/ranking';
import { topicDisplayName } from '@shared/topic-names';
import { formatCompact, formatDate, formatExact, formatPercent, formatRelative, formatSignedCompact } from '../lib/format';
import { hasFollowerCount } from '../lib/follower-count';
import { HighlightedName } from './highlighted-name';
import { publicationPath, topicPath } from '../lib/paths';
import { ExternalIcon } from '../../../components/icons';
import { Avatar } from './avatar';
import { FeedOnlyBadge } from './feed-only-badge';
import { FollowPublicationButton } from './follow-publication-button';
import { Sparkline } from './sparkline';
import styles from './publication-table.module.css';

function Growth({ gained, pct }: { gained: number; pct: number | null }) {
  const sign = gained > 0 ? 'positive' : gained < 0 ? 'negative' : 'neutral';
  const exact = `${gained > 0 ? '+' : ''}${formatExact(gained)}`;
  return (
    <span className={styles.growthValue} data-sign={sign}>
      <abbr title={`${exact} followers in ${GROWTH_WINDOW_DAYS} days`}>{formatSignedCompact(gained)}</abbr>
      {pct === null ? (
        <span className={styles.pct} title="No percentage: it started from zero followers">
          –
        </span>
      ) : (
        <span className={styles.pct}>{formatPercent(pct)}</span>
      )}
    </span>
  );
}

export interface PublicationRowProps {
  publication: RankedPublication;
  /** A search query whose match in the name is marked. */
  highlight?: string | undefined;
  /** aria-rowindex: 1 is the header row. */
  rowIndex: number;
  now: number;
  ref?: Ref<HTMLDivElement>;
  style?: CSSProperties;
  'data-index'?: number;
}

/** One ranked publication: a table row on wide screens, a card on narrow ones. */
export function PublicationRow({
  publication: pub,
  highlight,
  rowIndex,
  now,
  ref,
  style,
  'data-index': dataIndex,
}: PublicationRowProps) {
  const counted = hasFollowerCount(pub);
  const first = pub.sparkline[0];
  const last = pub.sparkline[pub.sparkline.length - 1];
  return (
    <div role="row" aria-rowindex={rowIndex} className={styles.row} ref={ref} style={style} data-index={dataIndex}>
      <div role="cell" className={styles.rank}>
        <span className={styles.rankNumber} data-podium={pub.rank <= 3 ? '' : undefined}>
          {pub.rank}
        </span>
      </div>
      <div role="cell" className={styles.pub}>
        <Avatar name={pub.name} seed={pub.slug} imageUrl={pub.imageUrl} />
        <div className={styles.pubText}>
          <div className={styles.nameLine}>
            <Link className={styles.name} to={publicationPath(pub.slug)}>
              {/* One box for the text and its marks, so the link can centre it in a full-height tap target. */}
              <span>
                <HighlightedName name={pub.name} highlight={highlight} />
              </span>
            </Link>
            {pub.isActive ? null : (
              <span className={styles.dormant} title="No posts in the last 30 days">
                Dormant
              </span>
            )}
          </div>
          {pub.topics.length > 0 ? (
            <ul className={styles.topics} aria-label={`Topics of ${pub.name}`}>
              {pub.topics.map((tag) => (
                <li key={tag}>
                  <Link to={topicPath(tag)}>
                    <span>{topicDisplayName(tag)}</span>
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className={styles.rowActions}>
          <a
            className={styles.visit}
            href={pub.url}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={`Visit ${pub.name} (opens in a new tab)`}
          >
            <ExternalIcon />
          </a>
          <FollowPublicationButton publication={{ ...pub, ranks: { followers: null, growth: null } }} compact />
        </div>
      </div>
      {/* A publication whose source counts no followers has no figures to show: a label says why, once. */}
      <div role="cell" className={styles.followers}>
        {counted ? (
          <>
            <span className={styles.cellLabel} aria-hidden="true">
              Followers
            </span>
            <abbr title={`${formatExact(pub.followers)} followers`}>{formatCompact(pub.followers)}</abbr>
          </>
        ) : (
          <FeedOnlyBadge />
        )}
      </div>
      <div role="cell" className={styles.growth}>
        {counted ? (
          <>
            <span className={styles.cellLabel} aria-hidden="true">
              {GROWTH_WINDOW_DAYS}d growth
            </span>
            <Growth gained={pub.gained30d} pct={pub.growthPct30d} />
          </>
        ) : null}
      </div>
      <div role="cell" className={styles.trend}>
        {counted ? (
          <Sparkline
            points={pub.sparkline}
            trend={pub.gained30d > 0 ? 'up' : pub.gained30d < 0 ? 'down' : 'flat'}
            label={
              first === undefined || last === undefined
                ? 'No follower history yet'
                : `Followers over the last ${pub.sparkline.length} days, from ${formatExact(first)} to ${formatExact(last)}`
            }
          />
        ) : null}
      </div>
      <div role="cell" className={styles.lastPost}>
        <span className={styles.cellLabel} aria-hidden="true">
          Last post
        </span>
        {pub.latestPostAt ? (
          <time dateTime={pub.latestPostAt} title={formatDate(pub.latestPostAt)}>
            {formatRelative(pub.latestPostAt, now)}
          </time>
        ) : (
          <span className={styles.muted}>No posts yet</span>
        )}
      </div>
    </div>
  );
}

/** Column headings; the board's own ranking column (the last post, for the activity board) is marked as the sorted one. */
export function TableHeader({ kind }: { kind: BoardKind | null }) {
  return (
    <div role="rowgroup" className={styles.head}>
      <div role="row" aria-rowindex={1} className={styles.headRow}>
        <div role="columnheader" className={styles.rank}>
          <span aria-hidden="true">#</span>
          <span className="visually-hidden">Rank</span>
        </div>
        <div role="columnheader" className={styles.pub}>
          Publication
        </div>
        <div role="columnheader" className={styles.followers} aria-sort={kind === 'followers' ? 'descending' : undefined}>
          Followers
        </div>
        <div role="columnheader" className={styles.growth} aria-sort={kind === 'growth' ? 'descending' : undefined}>
          {GROWTH_WINDOW_DAYS}-day growth
        </div>
        <div role="columnheader" className={styles.trend}>
          Trend
        </div>
        <div role="columnheader" className={styles.lastPost} aria-sort={kind === 'activity' ? 'descending' : undefined}>
          Last post
        </div>
      </div>
    </div>
  );
}

/** A short, non-virtual table (search results). */
export function PublicationTable({
  label,
  items,
  kind,
  highlight,
}: {
  label: string;
  items: RankedPublication[];
  kind: BoardKind | null;
  highlight?: string;
}) {
  const [now] = useState(Date.now);
  return (
    <div role="table" aria-label={label} aria-rowcount={items.length + 1} className={styles.table} data-kind={kind ?? undefined}>
      <TableHeader kind={kind} />
      <div role="rowgroup" className={styles.body}>
        {items.map((pub, index) => (
          <PublicationRow key={pub.slug} publication={pub} highlight={highlight} rowIndex={index + 2} now={now} />
        ))}
      </div>
    </div>
  );
}

/** Placeholder rows in the table's own shape while a board loads. */
export function SkeletonRows({ count = 8, label = 'Loading publications' }: { count?: number; label?: string }) {
  return (
    <div className={styles.table} role="status" aria-label={label} aria-busy="true">
      <div className={styles.headRow} aria-hidden="true" />
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className={styles.row} data-skeleton="" aria-hidden="true">
          <div className={styles.rank}>
            <span className={styles.bone} style={{ width: 20 }} />
          </div>
          <div className={styles.pub}>
            <span className={styles.avatar} data-bone="" />
            <div className={styles.pubText}>
              <span className={styles.bone} style={{ width: `${45 + ((index * 17) % 35)}%` }} />
              <span className={styles.bone} style={{ width: '30%', height: 10 }} />
            </div>
          </div>
          <div className={styles.followers}>
            <span className={styles.bone} style={{ width: 48 }} />
          </div>
          <div className={styles.growth}>
            <span className={styles.bone} style={{ width: 64 }} />
          </div>
          <div className={styles.trend}>
            <span className={styles.bone} style={{ width: 96, height: 20 }} />
          </div>
          <div className={styles.lastPost}>
            <span className={styles.bone} style={{ width: 72 }} />
          </div>
        </div>
      ))}
    </div>
  );
}
