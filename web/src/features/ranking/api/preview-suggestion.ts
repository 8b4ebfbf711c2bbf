import { useMutation } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';

const previewEndpoint = endpoint<typeof routes.previewSuggestion>('POST', '/api/i/toppubs/suggestion/preview');

/** Reads the publication at `url` once: what its platform shows, and whether it is ranked already. */
export function previewSuggestion(url: string) {
  return previewEndpoint({ body: { url } });
}

export function usePreviewSuggestion() {
  return useMutation({ mutationKey: ['ranking', 'suggestions', 'preview'], mutationFn: previewSuggestion });
}
