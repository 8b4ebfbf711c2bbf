import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { updateCachedStory } from './like-story';

const claimAuthorEndpoint = endpoint<typeof routes.claimStoryAuthor>('PUT', '/api/i/stories/story/{id}/author/{status}');

/** Says the caller wrote the story (`claimed`), or withdraws that. */
export function claimStoryAuthor({ id, claimed }: { id: string; claimed: boolean }) {
  return claimAuthorEndpoint({ params: { id, status: claimed ? 'on' : 'off' } });
}

/** The card shows the server's answer: who is the claimed author now. */
export function useClaimStoryAuthor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['stories', 'author'],
    mutationFn: claimStoryAuthor,
    onSuccess: ({ story }) => updateCachedStory(queryClient, story.id, () => story),
  });
}
