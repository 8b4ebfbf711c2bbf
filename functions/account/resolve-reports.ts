import * as accountRoutes from '../../shared/routes/account';
import { normaliseUserId } from '../../shared/schemas/account';
import { isConditionalCheckFailed } from '../lib/db/errors';
import { getDb } from '../lib/db/service';
import { createHandler } from '../lib/http/create-handler';

/**
 * Resolves each open report of the object as it was read: a report its reporter renewed
 * meanwhile (a later `updatedAt`) fails its condition and stays open for another look.
 */
export const handler = createHandler(accountRoutes.resolveReports, async ({ params, caller }) => {
  const db = getDb();
  // A reported user is stored under their normalised id, as the report route stores it.
  const objectId = params.objectType === 'user' ? normaliseUserId(params.objectId) : params.objectId;
  const { data: reports } = await db.entities.report.query
    .byObject({ objectType: params.objectType, objectId })
    .go({ pages: 'all' });
  const resolvedAt = new Date().toISOString();
  const outcomes = await Promise.all(
    reports
      .filter((report) => report.status !== 'resolved')
      .map((report) =>
        db.entities.report
          .patch({ objectType: report.objectType, objectId: report.objectId, reporterId: report.reporterId })
          .set({ status: 'resolved', resolution: params.resolution, resolvedAt, resolvedBy: caller.userId })
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
  return { resolved: outcomes.filter(Boolean).length };
});
