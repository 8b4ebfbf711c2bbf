import { type InfiniteData, useMutation, useQueryClient } from '@tanstack/react-query';
import type * as z from '@shared/zod';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import type { openReportsSchema } from '@shared/schemas/account';
import { accountKeys, type OpenReport } from './account-keys';

const resolveReportsEndpoint = endpoint<typeof routes.resolveReports>(
  'PUT',
  '/api/i/user/moderation/report/{objectType}/{objectId}/resolve/{resolution}',
);

export type Resolution = 'dismissed' | 'actioned';
type OpenReportsPage = z.infer<typeof openReportsSchema>;

/** Closes every open report of one object: nothing was wrong (`dismissed`) or something was done (`actioned`). */
export function resolveReports({
  report,
  resolution,
}: {
  report: Pick<OpenReport, 'objectType' | 'objectId'>;
  resolution: Resolution;
}) {
  return resolveReportsEndpoint({ params: { objectType: report.objectType, objectId: report.objectId, resolution } });
}

/** The object's reports leave the list on screen once resolved. */
export function useResolveReports() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['account', 'moderation', 'resolve'],
    mutationFn: resolveReports,
    onSuccess: (_answer, { report }) =>
      queryClient.setQueryData<InfiniteData<OpenReportsPage>>(accountKeys.openReports, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                items: page.items.filter((item) => !(item.objectType === report.objectType && item.objectId === report.objectId)),
              })),
            }
          : data,
      ),
  });
}
