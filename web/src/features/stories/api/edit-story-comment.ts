import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import { withChangedComment } from '../lib/comment-thread';
import { type CommentPage, storyKeys } from './story-keys';

const editCommentEndpoint = endpoint<typeof routes.editStoryComment>('PUT', '/api/i/stories/story/{id}/comment/{commentId}');

/** Replaces the text of the caller's own comment, within its edit window. */
export function editStoryComment({ storyId, commentId, body }: { storyId: string; commentId: string; body: string }) {
  return editCommentEndpoint({ params: { id: storyId, commentId }, body: { body } });
}

export function useEditStoryComment(storyId: string, viewerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['story', 'comment', 'edit'],
    mutationFn: (input: { commentId: string; body: string }) => editStoryComment({ storyId, ...input }),
    onSuccess: ({ comment, commentCount }) =>
      queryClient.setQueryData<InfiniteData<CommentPage, unknown>>(storyKeys.comments(storyId, viewerId), (data) =>
        data ? withChangedComment(data, comment, commentCount) : data,
      ),
  });
}
