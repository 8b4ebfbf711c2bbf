import { Button } from './button';

/** What a paged TanStack query offers for loading its next page. */
export interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** The button under a paged list: shown while there is a next page, busy while it loads. */
export function MoreButton({ query, label = 'Show more', className }: { query: PagedQuery; label?: string; className?: string }) {
  if (!query.hasNextPage) return null;
  return (
    <Button
      variant="secondary"
      className={className}
      onClick={() => void query.fetchNextPage()}
      disabled={query.isFetchingNextPage}
      aria-busy={query.isFetchingNextPage}
    >
      {query.isFetchingNextPage ? 'Loading…' : label}
    </Button>
  );
}
