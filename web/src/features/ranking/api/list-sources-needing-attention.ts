import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { suggestionKeys } from './suggestion-keys';

const attentionEndpoint = endpoint<typeof routes.listSourcesNeedingAttention>('GET', '/api/i/toppubs/admin/sources/attention');

export function listSourcesNeedingAttention(signal?: AbortSignal) {
  return attentionEndpoint(signal ? { signal } : {});
}

/** The sources the collector could not read lately, flagged ones first. */
export function sourcesNeedingAttentionQueryOptions() {
  return queryOptions({
    queryKey: suggestionKeys.attention,
    queryFn: ({ signal }) => listSourcesNeedingAttention(signal),
  });
}

export function useSourcesNeedingAttention(enabled: boolean) {
  return useQuery({ ...sourcesNeedingAttentionQueryOptions(), enabled });
}
