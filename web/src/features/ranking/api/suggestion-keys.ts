import type { Suggestion, SuggestionPage } from '@shared/schemas/suggestions';

export type { Suggestion, SuggestionPage };

export const suggestionKeys = {
  all: ['ranking', 'suggestions'] as const,
  mine: ['ranking', 'suggestions', 'mine'] as const,
  queue: ['ranking', 'suggestions', 'queue'] as const,
  attention: ['ranking', 'sources', 'attention'] as const,
};
