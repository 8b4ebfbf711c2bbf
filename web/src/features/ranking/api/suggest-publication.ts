import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { suggestionKeys } from './suggestion-keys';

const suggestEndpoint = endpoint<typeof routes.suggestPublication>('POST', '/api/i/toppubs/suggestion');

/** Suggests the publication at `url`: accepted at once, waiting for review, or known before. */
export function suggestPublication(url: string) {
  return suggestEndpoint({ body: { url } });
}

/** Suggests, then reads the caller's list and the queue again so the new suggestion shows. */
export function useSuggestPublication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['ranking', 'suggestions', 'suggest'],
    mutationFn: suggestPublication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: suggestionKeys.all }),
  });
}
