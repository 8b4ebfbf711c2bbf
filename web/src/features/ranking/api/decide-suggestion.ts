import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { type SuggestionPage, suggestionKeys } from './suggestion-keys';

const decideEndpoint = endpoint<typeof routes.decideSuggestion>('PUT', '/api/i/toppubs/suggestion/{id}/{decision}');

export type SuggestionDecision = 'accept' | 'reject';

export function decideSuggestion({ id, decision }: { id: string; decision: SuggestionDecision }) {
  return decideEndpoint({ params: { id, decision } });
}

/** A decided suggestion leaves the queue on screen at once; after a refusal (decided meanwhile) the queue is read again. */
export function useDecideSuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['ranking', 'suggestions', 'decide'],
    mutationFn: decideSuggestion,
    onSuccess: ({ suggestion }) => {
      queryClient.setQueryData<InfiniteData<SuggestionPage>>(suggestionKeys.queue, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => item.id !== suggestion.id) })),
            }
          : data,
      );
    },
    onError: () => queryClient.invalidateQueries({ queryKey: suggestionKeys.queue }),
  });
}
