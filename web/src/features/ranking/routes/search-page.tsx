import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PrefetchLink as Link } from '../../../components/prefetch-link';
import { APP_NAME } from '@shared/constants';
import { PageMeta } from '../../../components/page-meta';
import { useTopicList } from '../api/list-topics';
import { useSearchPublications } from '../api/search-pubs';
import { Pagination } from '../components/pagination';
import { PublicationTable, SkeletonRows } from '../components/publication-row';
import { SearchIcon } from '../../../components/icons';
import { EmptyState, ErrorState } from '../../../components/state-message';
import { formatExact } from '../lib/format';
import { searchPath } from '../lib/paths';
import stateStyles from '../../../components/state-message.module.css';
import boardStyles from '../components/board.module.css';
import styles from '../components/search.module.css';

/** How long typing must pause before the URL (and so the search) follows the input. */
export const SEARCH_DEBOUNCE_MS = 300;
const MAX_QUERY_LENGTH = 100;

function pageOf(value: string | null): number {
  const page = value && /^\d{1,6}$/.test(value) ? Number(value) : 1;
  return page >= 1 ? page : 1;
}

/** /search?q=&topic=&active=true&page= : publications by name, as you type, a page at a time. */
export function SearchPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get('q') ?? '';
  const page = pageOf(searchParams.get('page'));
  const activeOnly = searchParams.get('active') === 'true';
  const topic = searchParams.get('topic') || null;
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
          // New words start again at the first page.
          next.delete('page');
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value, q, setSearchParams]);

  const setFilter = (changes: { activeOnly?: boolean; topic?: string | null }) =>
    setSearchParams((previous) => {
      const next = new URLSearchParams(previous);
      if (changes.activeOnly !== undefined) {
        if (changes.activeOnly) next.set('active', 'true');
        else next.delete('active');
      }
      if (changes.topic !== undefined) {
        if (changes.topic) next.set('topic', changes.topic);
        else next.delete('topic');
      }
      next.delete('page');
      return next;
    });

  const query = q.trim();
  const search = useSearchPublications({ q: query, page, activeOnly, topic });
  const topics = useTopicList();
  const result = query && search.data?.query === query ? search.data : undefined;
  const filtered = activeOnly || topic !== null;
  const topicName = topics.data?.items.find((candidate) => candidate.tag === topic)?.name ?? topic;

  let content;
  if (!query) {
    content = (
      <EmptyState title="Find a publication" icon={<SearchIcon />}>
        <p>Type a name, or the start of any word in it. Results are ordered by followers.</p>
        <p className={stateStyles.links}>
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
    const beyond = search.data.total > 0;
    content = (
      <EmptyState
        title={
          beyond
            ? `There is no page ${page} of results for "${search.data.query}"`
            : `No publications match "${search.data.query}"${filtered ? ' with these filters' : ''}`
        }
        icon="∅"
      >
        <p>
          {beyond
            ? 'The results end earlier.'
            : filtered
              ? 'Try without the filters, or a shorter part of the name.'
              : 'Check the spelling, or try a shorter part of the name.'}
        </p>
        {beyond ? (
          <p className={stateStyles.links}>
            <Link to={searchPath({ q: query, activeOnly, topic })}>Go to the first page</Link>
          </p>
        ) : null}
      </EmptyState>
    );
  } else {
    const data = search.data;
    const last = Math.max(1, Math.ceil(data.total / data.pageInfo.limit));
    const scope = [activeOnly ? 'active' : null, topicName ? `in ${topicName}` : null].filter(Boolean).join(', ');
    content = (
      <div aria-busy={!result}>
        <p className={styles.summary} role="status">
          {`${formatExact(data.total)} ${data.total === 1 ? 'result' : 'results'} for "${data.query}"`}
          {scope ? ` (${scope})` : ''}
          {last > 1 ? ` · page ${data.pageInfo.page} of ${formatExact(last)}` : ''}
        </p>
        <PublicationTable label={`Search results for "${data.query}"`} items={data.items} kind={null} highlight={data.query} />
        <Pagination
          current={data.pageInfo.page}
          last={last}
          href={(target) => searchPath({ q: query, page: target, activeOnly, topic })}
        />
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
      <div className={styles.filters} role="group" aria-label="Filters">
        <label className={styles.filter}>
          <span>Topic</span>
          <select value={topic ?? ''} onChange={(event) => setFilter({ topic: event.target.value || null })}>
            <option value="">Every topic</option>
            {topic && !topics.data?.items.some((candidate) => candidate.tag === topic) ? (
              <option value={topic}>{topic}</option>
            ) : null}
            {topics.data?.items.map((candidate) => (
              <option key={candidate.tag} value={candidate.tag}>
                {candidate.name}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.filter}>
          <input type="checkbox" checked={activeOnly} onChange={(event) => setFilter({ activeOnly: event.target.checked })} />
          <span>Active only</span>
        </label>
      </div>
      {content}
    </div>
  );
}
