import { useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { updateCachedStory } from './like-story';

const submitForReviewEndpoint = endpoint<typeof routes.submitStoryForReview>('PUT', '/api/i/stories/story/{id}/review/{status}');

/** The sharer submits their story for the editorial review (`submitted`), or withdraws it. */
export function submitStoryForReview({ id, submitted }: { id: string; submitted: boolean }) {
  return submitForReviewEndpoint({ params: { id, status: submitted ? 'on' : 'off' } });
}

export function useSubmitStoryForReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['stories', 'review'],
    mutationFn: submitStoryForReview,
    onSuccess: ({ story }) => updateCachedStory(queryClient, story.id, () => story),
  });
}
