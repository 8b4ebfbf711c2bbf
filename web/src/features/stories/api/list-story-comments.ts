import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storyKeys } from './story-keys';

const listCommentsEndpoint = endpoint<typeof routes.listStoryComments>('GET', '/api/i/stories/story/{id}/comments');

/** A page of a story's comments in reading order, after `cursor` (the first page without one). */
export function listStoryComments(id: string, cursor: string | undefined, signal?: AbortSignal) {
  return listCommentsEndpoint({ params: { id }, query: cursor ? { cursor } : {}, ...(signal ? { signal } : {}) });
}

/** Keyed by the viewer: who they blocked and which comments are theirs to edit change the answer. */
export function storyCommentsQueryOptions(id: string, viewerId: string | null) {
  return infiniteQueryOptions({
    queryKey: storyKeys.comments(id, viewerId ?? 'visitor'),
    queryFn: ({ pageParam, signal }) => listStoryComments(id, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

export function useStoryComments(id: string, viewerId: string | null, enabled = true) {
  return useInfiniteQuery({ ...storyCommentsQueryOptions(id, viewerId), enabled });
}
