import { useMutation } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import type { ReportReason } from '../../../components/report-fields';

const reportCommentEndpoint = endpoint<typeof routes.reportStoryComment>(
  'POST',
  '/api/i/stories/story/{id}/comment/{commentId}/report',
);

/** Reports a comment to the moderators; a repeat report updates the first. */
export function reportStoryComment({
  storyId,
  commentId,
  reason,
  details,
}: {
  storyId: string;
  commentId: string;
  reason: ReportReason;
  details?: string | undefined;
}) {
  return reportCommentEndpoint({ params: { id: storyId, commentId }, body: { reason, ...(details ? { details } : {}) } });
}

export function useReportStoryComment() {
  return useMutation({ mutationKey: ['story', 'comment', 'report'], mutationFn: reportStoryComment });
}
