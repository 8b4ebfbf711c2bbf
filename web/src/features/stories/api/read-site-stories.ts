import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { type SiteSort, storyKeys } from './story-keys';

const siteStoriesEndpoint = endpoint<typeof routes.readSiteFeed>('GET', '/api/i/stories/site/{host}');

export function readSiteStories(host: string, sort: SiteSort, cursor: string | undefined, signal?: AbortSignal) {
  return siteStoriesEndpoint({ params: { host }, query: cursor ? { sort, cursor } : { sort }, ...(signal ? { signal } : {}) });
}

/** Under the feeds' key, so a like on the site page shows in the feeds too (and the other way round). */
export function siteStoriesQueryOptions(host: string, sort: SiteSort, viewerId: string | null) {
  return infiniteQueryOptions({
    queryKey: storyKeys.siteFeed(host, sort, viewerId ?? 'visitor'),
    queryFn: ({ pageParam, signal }) => readSiteStories(host, sort, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export function useSiteStories(host: string, sort: SiteSort, viewerId: string | null, enabled = true) {
  return useInfiniteQuery({ ...siteStoriesQueryOptions(host, sort, viewerId), enabled });
}
