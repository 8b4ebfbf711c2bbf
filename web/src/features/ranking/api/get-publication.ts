import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const getPublication = endpoint<typeof routes.getPublication>('GET', '/api/i/toppubs/pub/{slug}');

/** One publication: its standing, its rank on every board, and 90 days of followers and ranks. */
export function getPublicationDetail(slug: string, signal?: AbortSignal) {
  return getPublication({ params: { slug }, ...(signal ? { signal } : {}) });
}

export function publicationQueryOptions(slug: string) {
  return queryOptions({
    queryKey: ['ranking', 'getPublication', slug] as const,
    queryFn: ({ signal }) => getPublicationDetail(slug, signal),
  });
}

export function usePublication(slug: string) {
  return useQuery(publicationQueryOptions(slug));
}
