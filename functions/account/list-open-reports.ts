import * as accountRoutes from '../../shared/routes/account';
import { checkedCursor } from '../lib/db/cursors';
import { getDb } from '../lib/db/service';
import { getUsers } from '../lib/db/users';
import { createHandler } from '../lib/http/create-handler';

const REPORTS_PAGE_SIZE = 50;

/** One Query of the open reports and one batch read of their reporters. */
export const handler = createHandler(accountRoutes.listOpenReports, async ({ query }) => {
  const db = getDb();
  const open = db.entities.report.query.byStatus({ status: 'open' });
  const cursor = checkedCursor(query.cursor, open, 'gsi1pk');
  const page = await open.go({ order: 'desc', limit: REPORTS_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  const reporters = new Map(
    (await getUsers(db, { userIds: page.data.map((report) => report.reporterId) })).map((user) => [user.userId, user]),
  );
  return {
    items: page.data.map((report) => {
      const reporter = reporters.get(report.reporterId);
      return {
        objectType: report.objectType,
        objectId: report.objectId,
        reason: report.reason,
        details: report.details ?? '',
        reporter: reporter ? { userId: reporter.userId, username: reporter.username } : null,
        createdAt: report.createdAt,
        updatedAt: report.updatedAt,
      };
    }),
    nextCursor: page.cursor ?? null,
  };
});
