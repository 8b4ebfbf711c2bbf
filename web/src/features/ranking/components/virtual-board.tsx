import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { BoardPage } from '@shared/schemas/ranking';
import { useBoardRows } from '../api/use-board';
import { formatExact } from '../lib/format';
import type { BoardFilter } from '../lib/paths';
import { SMALL_SCREEN_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import { ErrorState } from '../../../components/state-message';
import { PublicationRow, TableHeader } from './publication-row';
import styles from './board.module.css';
import tableStyles from './publication-table.module.css';

const ROW_HEIGHT = 73;
const CARD_HEIGHT = 220;
const CARD_GAP = 12;
/** Start loading the next page this far before the end of the list comes into view. */
const PREFETCH_MARGIN = '800px 0px';

/**
 * A board of any length: only the rows near the viewport are in the DOM (window virtualizer),
 * and the next page loads as the end comes into view, with a button for when it does not.
 */
export function VirtualBoard({ filter, firstPage, label }: { filter: BoardFilter; firstPage: BoardPage; label: string }) {
  const { rows, total, hasNextPage, fetchNextPage, isFetchingNextPage, isFetchNextPageError, error } = useBoardRows(
    filter,
    firstPage,
  );
  const compact = useMediaQuery(SMALL_SCREEN_QUERY);
  const bodyRef = useRef<HTMLDivElement>(null);
  const sentinelRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  const [now] = useState(Date.now);
  const estimate = compact ? CARD_HEIGHT : ROW_HEIGHT;

  // The list's distance from the top of the document, for the window virtualizer.
  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!body) return;
    const measure = () => setScrollMargin(Math.round(body.getBoundingClientRect().top + window.scrollY));
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => estimate,
    overscan: 6,
    gap: compact ? CARD_GAP : 0,
    scrollMargin,
    // The window's size from the start, not after the first measurement: the first render already
    // holds every row in view, so a page rendered as HTML is replaced by the same rows at once.
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    getItemKey: (index) => rows[index]?.slug ?? index,
    // Without layout (tests, hidden tabs) an element measures 0: keep the estimate instead.
    measureElement: (element) => element.getBoundingClientRect().height || estimate,
  });

  const canAutoLoad = hasNextPage && !isFetchingNextPage && !isFetchNextPageError;
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || !canAutoLoad || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { rootMargin: PREFETCH_MARGIN },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [canAutoLoad, fetchNextPage]);

  const items = virtualizer.getVirtualItems();
  return (
    <>
      <div role="table" aria-label={label} aria-rowcount={total + 1} className={tableStyles.table} data-kind={filter.kind}>
        <TableHeader kind={filter.kind} />
        <div role="rowgroup" ref={bodyRef} className={tableStyles.body} style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const publication = rows[item.index];
            if (!publication) return null;
            return (
              <PublicationRow
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                rowIndex={item.index + 2}
                publication={publication}
                now={now}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  width: '100%',
                  transform: `translateY(${item.start - scrollMargin}px)`,
                }}
              />
            );
          })}
        </div>
      </div>
      <div ref={sentinelRef} className={styles.sentinel} aria-hidden="true" />
      <div className={styles.more}>
        <p className={styles.count} aria-live="polite">
          Showing {formatExact(rows.length)} of {formatExact(total)}
        </p>
        {isFetchNextPageError ? (
          <ErrorState title="Could not load more" error={error} onRetry={() => void fetchNextPage()} compact />
        ) : hasNextPage ? (
          <button type="button" className={styles.moreButton} onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        ) : (
          <p className={styles.end}>That’s the whole board.</p>
        )}
      </div>
    </>
  );
}
