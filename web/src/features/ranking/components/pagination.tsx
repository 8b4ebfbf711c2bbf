import { PrefetchLink as Link } from '../../../components/prefetch-link';
import styles from './topics.module.css';

/** Page numbers to show: the first, the last and two either side of the current, with gaps. */
export function pageWindow(current: number, last: number): (number | 'gap')[] {
  const pages: (number | 'gap')[] = [];
  for (let page = 1; page <= last; page++) {
    if (page === 1 || page === last || Math.abs(page - current) <= 2) pages.push(page);
    else if (pages.at(-1) !== 'gap') pages.push('gap');
  }
  return pages;
}

/** Real links between pages, so every page can be opened, shared and crawled. */
export function Pagination({ current, last, href }: { current: number; last: number; href: (page: number) => string }) {
  if (last <= 1) return null;
  return (
    <nav className={styles.pagination} aria-label="Pagination">
      {current > 1 ? (
        <Link className={styles.pageLink} to={href(current - 1)} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span className={styles.pageLink} aria-disabled="true">
          ← Previous
        </span>
      )}
      <ul className={styles.pageList}>
        {pageWindow(current, last).map((page, index) =>
          page === 'gap' ? (
            <li key={`gap-${index}`} className={styles.gap} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={page}>
              <Link
                className={styles.pageNumber}
                to={href(page)}
                aria-current={page === current ? 'page' : undefined}
                aria-label={`Page ${page}`}
              >
                {page}
              </Link>
            </li>
          ),
        )}
      </ul>
      {current < last ? (
        <Link className={styles.pageLink} to={href(current + 1)} rel="next">
          Next →
        </Link>
      ) : (
        <span className={styles.pageLink} aria-disabled="true">
          Next →
        </span>
      )}
    </nav>
  );
}
