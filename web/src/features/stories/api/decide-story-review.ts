import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { type StoryPage, storyKeys } from './story-keys';

const decideReviewEndpoint = endpoint<typeof routes.decideStoryReview>('PUT', '/api/i/stories/review/story/{id}/{decision}');

export type ReviewDecision = 'accept' | 'reject';

export function decideStoryReview({ id, decision }: { id: string; decision: ReviewDecision }) {
  return decideReviewEndpoint({ params: { id, decision } });
}

/** A decided story leaves the queue on screen at once; the feeds show its new state when read again. */
export function useDecideStoryReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['stories', 'decide'],
    mutationFn: decideStoryReview,
    onSuccess: ({ story }) => {
      queryClient.setQueryData<InfiniteData<StoryPage>>(storyKeys.reviewQueue, (data) =>
        data
          ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => item.id !== story.id) })) }
          : data,
      );
      void queryClient.invalidateQueries({ queryKey: storyKeys.feeds });
    },
  });
}
