import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { type Feed, storyKeys } from './story-keys';

const feedEndpoints = {
  hot: endpoint<typeof routes.readHotFeed>('GET', '/api/i/stories/feed/hot'),
  new: endpoint<typeof routes.readNewFeed>('GET', '/api/i/stories/feed/new'),
  following: endpoint<typeof routes.readFollowingFeed>('GET', '/api/i/stories/feed/following'),
};

/** A page of a feed, after `cursor` (the first page without one). */
export function readFeed(feed: Feed, cursor: string | undefined, signal?: AbortSignal) {
  return feedEndpoints[feed]({ query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

/** Keyed by the viewer too: a page carries the viewer's own likes. */
export function feedQueryOptions(feed: Feed, viewerId: string | null) {
  return infiniteQueryOptions({
    queryKey: storyKeys.feed(feed, viewerId ?? 'visitor'),
    queryFn: ({ pageParam, signal }) => readFeed(feed, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export function useFeed(feed: Feed, viewerId: string | null, enabled = true) {
  return useInfiniteQuery({ ...feedQueryOptions(feed, viewerId), enabled });
}
