import { useMutation } from '@tanstack/react-query';
import { endpoint } from '../../../lib/api-client';
import type { routes } from '@shared/routes';
import type { ReportReason } from '../../../components/report-fields';

const reportObjectEndpoint = endpoint<typeof routes.reportObject>('POST', '/api/i/user/me/mod/report/object');

export interface ReportInput {
  objectType: 'user' | 'story' | 'publication' | 'transfer' | 'file';
  objectId: string;
  reason: ReportReason;
  details?: string;
}

/** Reports an object for review; a repeat report of the same object updates the first. */
export function reportObject(body: ReportInput) {
  return reportObjectEndpoint({ body });
}

export function useReportObject() {
  return useMutation({ mutationKey: ['account', 'reportObject'], mutationFn: reportObject });
}
