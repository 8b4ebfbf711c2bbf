import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { BoardPage, RankedPublication } from '../../../../../shared/schemas/ranking';
import type { BoardFilter } from '../lib/paths';
import { growthPubsPagesQueryOptions } from './load-growth-pubs';
import { pubsPagesQueryOptions } from './load-pubs';
import { growthScreenQueryOptions } from './show-growth';
import { homeScreenQueryOptions } from './show-home';

/** The screen call of a board (show/home or show/growth): SEO, topic, popular topics, first page. */
export function useBoardScreen(filter: BoardFilter) {
  const growth = useQuery({ ...growthScreenQueryOptions(filter), enabled: filter.kind === 'growth' });
  const home = useQuery({ ...homeScreenQueryOptions(filter), enabled: filter.kind !== 'growth' });
  return filter.kind === 'growth' ? growth : home;
}

/**
 * Every loaded row of a board: the screen's first page, then load/pubs or load/growthPubs
 * pages appended on demand. Mount it only once the screen has loaded.
 */
export function useBoardRows(filter: BoardFilter, firstPage: BoardPage) {
  const options = filter.kind === 'growth' ? growthPubsPagesQueryOptions(filter) : pubsPagesQueryOptions(filter);
  const pages = useInfiniteQuery({
    ...options,
    initialData: { pages: [firstPage], pageParams: [0] },
    // Refetching every loaded page on focus would cost one call per page: the first page is
    // kept fresh by the screen call, further pages are re-read when the board is reopened.
    refetchOnWindowFocus: false,
  });
  const rows = useMemo(() => {
    const seen = new Set<string>();
    const list: RankedPublication[] = [];
    // The ranking may be recomputed between two pages: never show a publication twice.
    for (const page of pages.data.pages) {
      for (const item of page.items) {
        if (seen.has(item.slug)) continue;
        seen.add(item.slug);
        list.push(item);
      }
    }
    return list;
  }, [pages.data.pages]);
  const total = pages.data.pages.at(-1)?.pageInfo.total ?? firstPage.pageInfo.total;
  return { ...pages, rows, total };
}
