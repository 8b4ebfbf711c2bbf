import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { withChangedComment, withoutComment } from '../lib/comment-thread';
import { updateCommentCount } from './add-story-comment';
import { type CommentPage, storyKeys } from './story-keys';

const deleteCommentEndpoint = endpoint<typeof routes.deleteStoryComment>(
  'DELETE',
  '/api/i/stories/story/{id}/comment/{commentId}',
);

/** Deletes the caller's own comment: a "[deleted]" placeholder stays while replies hang under it. */
export function deleteStoryComment({ storyId, commentId }: { storyId: string; commentId: string }) {
  return deleteCommentEndpoint({ params: { id: storyId, commentId } });
}

export function useDeleteStoryComment(storyId: string, viewerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['story', 'comment', 'delete'],
    mutationFn: (commentId: string) => deleteStoryComment({ storyId, commentId }),
    onSuccess: ({ comment, commentCount }, commentId) => {
      queryClient.setQueryData<InfiniteData<CommentPage, unknown>>(storyKeys.comments(storyId, viewerId), (data) => {
        if (!data) return data;
        return comment ? withChangedComment(data, comment, commentCount) : withoutComment(data, commentId, commentCount);
      });
      updateCommentCount(queryClient, storyId, commentCount);
    },
  });
}
