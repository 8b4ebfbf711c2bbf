import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { transferKeys } from './transfer-keys';

const previewFileEndpoint = endpoint<typeof routes.previewFile>('GET', '/api/i/file/file/{id}/preview');

/** A short-lived link to preview a file in the page: a view, never counted as a download. */
export function getPreviewLink(fileId: string, signal?: AbortSignal) {
  return previewFileEndpoint({ params: { id: fileId }, ...(signal ? { signal } : {}) });
}

/** The link lasts five minutes; a preview open longer asks again after four. */
const PREVIEW_FRESH_MS = 4 * 60_000;

export function previewLinkQueryOptions(fileId: string) {
  return queryOptions({
    queryKey: [...transferKeys.preview(fileId), 'viewer'] as const,
    queryFn: ({ signal }) => getPreviewLink(fileId, signal),
    staleTime: PREVIEW_FRESH_MS,
    gcTime: PREVIEW_FRESH_MS,
    retry: false,
  });
}

export function usePreviewLink(fileId: string) {
  return useQuery(previewLinkQueryOptions(fileId));
}
