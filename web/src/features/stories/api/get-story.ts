import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { storyKeys } from './story-keys';

const getStoryEndpoint = endpoint<typeof routes.getStory>('GET', '/api/i/stories/story/{id}/v');

export function getStory(id: string, signal?: AbortSignal) {
  return getStoryEndpoint({ params: { id }, ...(signal ? { signal } : {}) });
}

/** Keyed by the viewer: the answer carries their relation to the story. */
export function storyQueryOptions(id: string, viewerId: string | null) {
  return queryOptions({
    queryKey: storyKeys.story(id, viewerId ?? 'visitor'),
    queryFn: ({ signal }) => getStory(id, signal),
  });
}

export function useStory(id: string, viewerId: string | null, enabled = true) {
  return useQuery({ ...storyQueryOptions(id, viewerId), enabled });
}
