import { type InfiniteData, type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { withPostedComment } from '../lib/comment-thread';
import { updateCachedStory } from './like-story';
import { type CommentPage, storyKeys } from './story-keys';

const addCommentEndpoint = endpoint<typeof routes.addStoryComment>('POST', '/api/i/stories/story/{id}/comments');

/** Comments on the story, or replies to one of its comments (`parentId`). */
export function addStoryComment({ storyId, body, parentId }: { storyId: string; body: string; parentId?: string | undefined }) {
  return addCommentEndpoint({ params: { id: storyId }, body: { body, ...(parentId ? { parentId } : {}) } });
}

/** The story's count, on its page and in every list that shows it, as the API answered it. */
export function updateCommentCount(queryClient: QueryClient, storyId: string, commentCount: number): void {
  updateCachedStory(queryClient, storyId, (story) => ({ ...story, commentCount }));
}

/** The comment shows at once where the API will list it, and the story's count moves. */
export function useAddStoryComment(storyId: string, viewerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['story', 'comment', 'add'],
    mutationFn: (input: { body: string; parentId?: string | undefined }) => addStoryComment({ storyId, ...input }),
    onSuccess: ({ comment, commentCount }) => {
      queryClient.setQueryData<InfiniteData<CommentPage, unknown>>(storyKeys.comments(storyId, viewerId), (data) =>
        data ? withPostedComment(data, comment, commentCount) : data,
      );
      updateCommentCount(queryClient, storyId, commentCount);
    },
  });
}
