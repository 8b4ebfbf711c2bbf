import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const listTopics = endpoint<typeof routes.listTopics>('GET', '/api/i/toppubs/topics');

/** Every topic, biggest first: for pickers (the search's topic filter). */
export function getTopicList(signal?: AbortSignal) {
  return listTopics(signal ? { signal } : {});
}

export const topicListQueryOptions = queryOptions({
  queryKey: ['ranking', 'listTopics'] as const,
  queryFn: ({ signal }) => getTopicList(signal),
  // Topics change with the hourly ranking run.
  staleTime: 5 * 60_000,
});

export function useTopicList() {
  return useQuery(topicListQueryOptions);
}
