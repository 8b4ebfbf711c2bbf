import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { BoardKind, BoardPage, RankedPublication } from '@shared/schemas/ranking';
import type { BoardFilter } from '../lib/paths';
import { activityPubsPagesQueryOptions } from './load-activity-pubs';
import { growthPubsPagesQueryOptions } from './load-growth-pubs';
import { pubsPagesQueryOptions } from './load-pubs';
import { activityScreenQueryOptions } from './show-activity';
import { growthScreenQueryOptions } from './show-growth';
import { homeScreenQueryOptions } from './show-home';

/**
 * Each ranking's two calls: the screen (SEO, topic, popular topics, first page) and its further
 * pages. They answer the same shapes, so a board is the same code whatever it ranks by.
 */
const BOARD_ENDPOINTS = {
  followers: { screen: homeScreenQueryOptions, pages: pubsPagesQueryOptions },
  growth: { screen: growthScreenQueryOptions, pages: growthPubsPagesQueryOptions },
  activity: { screen: activityScreenQueryOptions, pages: activityPubsPagesQueryOptions },
} satisfies Record<BoardKind, unknown>;

/** The screen call of a board (show/home, show/growth or show/activity). */
export function useBoardScreen(filter: BoardFilter) {
  return useQuery(BOARD_ENDPOINTS[filter.kind].screen(filter));
}

/**
 * Every loaded row of a board: the screen's first page, then pages of its load call (load/pubs,
 * load/growthPubs or load/activityPubs) appended on demand. Mount it only once the screen has loaded.
 */
export function useBoardRows(filter: BoardFilter, firstPage: BoardPage) {
  const pages = useInfiniteQuery({
    ...BOARD_ENDPOINTS[filter.kind].pages(filter),
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
