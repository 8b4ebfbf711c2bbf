import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { APP_NAME } from '../../../../../shared/constants';
import { PageMeta } from '../../../components/page-meta';
import { useSearchPublications } from '../api/search-pubs';
import { PublicationTable, SkeletonRows } from '../components/publication-row';
import { SearchIcon } from '../../../components/icons';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { formatExact } from '../lib/format';
import boardStyles from '../components/board.module.css';
import styles from '../components/search.module.css';

/** How long typing must pause before the URL (and so the search) follows the input. */
export const SEARCH_DEBOUNCE_MS = 300;
const MAX_QUERY_LENGTH = 100;

/** /search?q= : publications by name, as you type. */
export function SearchPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get('q') ?? '';
  const [value, setValue] = useState(q);
  const [syncedQ, setSyncedQ] = useState(q);
  // Back/forward or a link changed ?q: show it in the box.
  if (q !== syncedQ) {
    setSyncedQ(q);
    setValue(q);
  }

  useEffect(() => {
    if (value.trim() === q.trim()) return;
    const timer = setTimeout(() => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          if (value.trim()) next.set('q', value.trim());
          else next.delete('q');
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value, q, setSearchParams]);

  const query = q.trim();
  const search = useSearchPublications(query);
  const result = query && search.data?.query === query ? search.data : undefined;

  let content;
  if (!query) {
    content = (
      <EmptyState title="Find a publication" icon={<SearchIcon />}>
        <p>Type a name, or the start of any word in it. Results are ordered by followers.</p>
        <p className={boardStyles.stateLinks}>
          <Link to="/">Most followed</Link>
          <Link to="/growing">Fastest growing</Link>
          <Link to="/topics">Browse topics</Link>
        </p>
      </EmptyState>
    );
  } else if (search.isError) {
    content = (
      <ErrorState
        title="The search failed"
        error={search.error}
        onRetry={() => void search.refetch()}
        retrying={search.isFetching}
      />
    );
  } else if (!search.data) {
    content = <SkeletonRows count={4} label="Searching" />;
  } else if (search.data.items.length === 0) {
    content = (
      <EmptyState title={`No publications match "${search.data.query}"`} icon="∅">
        <p>Check the spelling, or try a shorter part of the name.</p>
      </EmptyState>
    );
  } else {
    const data = search.data;
    content = (
      <div aria-busy={!result}>
        <p className={styles.summary} role="status">
          {data.total > data.items.length
            ? `Top ${formatExact(data.items.length)} of ${formatExact(data.total)} results for "${data.query}"`
            : `${formatExact(data.total)} ${data.total === 1 ? 'result' : 'results'} for "${data.query}"`}
        </p>
        <PublicationTable label={`Search results for "${data.query}"`} items={data.items} kind={null} />
      </div>
    );
  }

  return (
    <div className={boardStyles.page}>
      <PageMeta
        seo={{
          title: query ? `"${query}" · Search · ${APP_NAME}` : `Search · ${APP_NAME}`,
          description: 'Search every ranked publication by name.',
        }}
      />
      <header className={boardStyles.header}>
        <h1 className={boardStyles.title}>Search</h1>
        <p className={boardStyles.lede}>Every publication we rank, by name.</p>
      </header>
      <form className={styles.form} role="search" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="ranking-search" className="visually-hidden">
          Search publications
        </label>
        <span className={styles.icon} aria-hidden="true">
          <SearchIcon />
        </span>
        <input
          id="ranking-search"
          className={styles.input}
          type="search"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          placeholder="Publication name"
          maxLength={MAX_QUERY_LENGTH}
          autoComplete="off"
          spellCheck={false}
          autoFocus
        />
        {search.isFetching && query ? <span className={styles.spinner} role="status" aria-label="Searching" /> : null}
      </form>
      {content}
    </div>
  );
}
