import type { REPORT_OBJECT_TYPES, REPORT_REASONS, REPORT_RESOLUTIONS } from './db/entities/report';
import { isConditionalCheckFailed } from './db/errors';
import type { Db } from './db/service';

type ReportObjectType = (typeof REPORT_OBJECT_TYPES)[number];

/**
 * Files one person's report of an object for moderation. One item per reporter and object: the
 * first report creates it, a repeat replaces its reason and details (one UpdateItem either way,
 * so two concurrent repeats cannot make two reports). Answers whether it is a new report.
 */
export async function fileReport(
  db: Db,
  options: {
    objectType: ReportObjectType;
    objectId: string;
    reporterId: string;
    reason: (typeof REPORT_REASONS)[number];
    details?: string | undefined;
    now?: Date;
  },
): Promise<{ isNew: boolean }> {
  const now = (options.now ?? new Date()).toISOString();
  const { data: previous } = await db.entities.report
    .upsert({
      objectType: options.objectType,
      objectId: options.objectId,
      reporterId: options.reporterId,
      reason: options.reason,
      details: options.details ?? '',
      updatedAt: now,
      // A new report re-opens what a moderator resolved: something may have changed since.
      status: 'open',
    })
    .ifNotExists({ createdAt: now })
    .go({ response: 'all_old' });
  return { isNew: !previous || Object.keys(previous).length === 0 };
}

/**
 * Resolves each open report of the object as it was read: a report its reporter renewed
 * meanwhile (a later `updatedAt`) fails its condition and stays open for another look.
 * Answers how many were resolved.
 */
export async function resolveReportsOf(
  db: Db,
  options: {
    objectType: ReportObjectType;
    objectId: string;
    resolution: (typeof REPORT_RESOLUTIONS)[number];
    resolvedBy: string;
    now?: Date;
  },
): Promise<number> {
  const { data: reports } = await db.entities.report.query
    .byObject({ objectType: options.objectType, objectId: options.objectId })
    .go({ pages: 'all' });
  const resolvedAt = (options.now ?? new Date()).toISOString();
  const outcomes = await Promise.all(
    reports
      .filter((report) => report.status !== 'resolved')
      .map((report) =>
        db.entities.report
          .patch({ objectType: report.objectType, objectId: report.objectId, reporterId: report.reporterId })
          .set({ status: 'resolved', resolution: options.resolution, resolvedAt, resolvedBy: options.resolvedBy })
          .where(({ updatedAt }, { eq }) => eq(updatedAt, report.updatedAt))
          .go({ response: 'none' })
          .then(
            () => true,
            (error: unknown) => {
              if (isConditionalCheckFailed(error)) return false;
              throw error;
            },
          ),
      ),
  );
  return outcomes.filter(Boolean).length;
}
