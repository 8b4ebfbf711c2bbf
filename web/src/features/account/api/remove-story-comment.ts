import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import type * as z from '@shared/zod';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import type { openReportsSchema } from '@shared/schemas/account';
import { commentReportId } from '@shared/stories/comment-rules';
import { accountKeys } from './account-keys';

const removeCommentEndpoint = endpoint<typeof routes.removeStoryComment>(
  'PUT',
  '/api/i/stories/moderation/story/{id}/comment/{commentId}/removal',
);

type OpenReportsPage = z.infer<typeof openReportsSchema>;

/** Superusers: removes a reported comment ("[removed]" in its thread); its open reports resolve as acted on. */
export function removeStoryComment({ storyId, commentId }: { storyId: string; commentId: string }) {
  return removeCommentEndpoint({ params: { id: storyId, commentId } });
}

/** The comment's reports leave the list on screen: the removal resolved them. */
export function useRemoveStoryComment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'moderation', 'remove-comment'],
    mutationFn: removeStoryComment,
    onSuccess: (_answer, { storyId, commentId }) => {
      const objectId = commentReportId(storyId, commentId);
      queryClient.setQueryData<InfiniteData<OpenReportsPage>>(accountKeys.openReports, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                items: page.items.filter((item) => !(item.objectType === 'comment' && item.objectId === objectId)),
              })),
            }
          : data,
      );
    },
  });
}
