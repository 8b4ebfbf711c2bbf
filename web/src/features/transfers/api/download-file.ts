import { queryOptions, useQuery } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { transferKeys } from './transfer-keys';

const downloadFileEndpoint = endpoint<typeof routes.downloadFile>('GET', '/api/i/file/file/{id}/download');

/**
 * A short-lived url for a ready file: 'attachment' downloads it under its name (and counts as
 * the recipient's download), 'inline' shows it in the page (an image preview; not counted).
 */
export function getDownloadLink(fileId: string, disposition: 'attachment' | 'inline', signal?: AbortSignal) {
  return downloadFileEndpoint({ params: { id: fileId }, query: { disposition }, ...(signal ? { signal } : {}) });
}

/** The link lasts five minutes; a preview asks again after four. */
const PREVIEW_FRESH_MS = 4 * 60_000;

export function filePreviewQueryOptions(fileId: string) {
  return queryOptions({
    queryKey: transferKeys.preview(fileId),
    queryFn: ({ signal }) => getDownloadLink(fileId, 'inline', signal),
    staleTime: PREVIEW_FRESH_MS,
    gcTime: PREVIEW_FRESH_MS,
    retry: false,
  });
}

/** An image's inline url, asked for only once `enabled` (the image is near the screen). */
export function useFilePreview(fileId: string, enabled: boolean) {
  return useQuery({ ...filePreviewQueryOptions(fileId), enabled });
}
